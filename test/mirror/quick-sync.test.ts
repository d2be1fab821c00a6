import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestBed, virtualClock, type TestBed } from '../e2e/harness.js';
import { tempDir } from '../support/temp-dir.js';
import { describeWithSqlite } from '../support/sqlite-node.js';

// Issue 47: a sync within the export hour reads only what changed since the last sync (src/mirror/sync/quick.ts):
// the history since, the entries added since, each entry those events touch, and the collections small enough to
// read whole. What no listing shows waits for the next export, said in one line; --full still reads every page.
// The same run at 20,000 entries, its request budget asserted, is a benchmark: bench/quick-sync.mjs.

interface Db {
  prepare(sql: string): { all(...params: unknown[]): Record<string, unknown>[] };
  close(): void;
}

function query(path: string, sql: string, ...params: unknown[]): Record<string, unknown>[] {
  const { DatabaseSync } = createRequire(import.meta.url)('node:sqlite') as {
    DatabaseSync: new (path: string, options?: { readOnly?: boolean }) => Db;
  };
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return db.prepare(sql).all(...params);
  } finally {
    db.close();
  }
}

/** Every row of the item tables, in a fixed order: what "writes nothing" compares. */
function itemRows(db: string): unknown[] {
  const tables = ['entries', 'works', 'history', 'lists', 'list_items', 'reviews', 'achievements', 'notifications', 'calendar', 'profile', 'stats'];
  return tables.map((table) => query(db, `SELECT * FROM ${table} ORDER BY id`));
}

/**
 * Over two pages of notifications are too large to read whole (as the reviews of a 20,000-entry account are): the line
 * names them, when the export is possible, and --full.
 */
const WAITS =
  /^lk: read only what changed since the last sync; may be waiting for the next export \(possible at (\d{4}-\d\d-\d\d )?\d\d:\d\d:\d\d \(in [^)]+\)\): (.*; )?the notifications \(too large to read whole within the budget\) — lk sync --full reads every page now$/;

/** Entries of the account: more pages (12) than the new events touch entries (10), so each is read on its own. */
const ENTRIES = 1_200;

const HOUR = 60 * 60 * 1000;

describeWithSqlite('a sync within the export hour, on an account with more notifications than two pages', () => {
  let bed: TestBed;
  let dir: string;
  const clock = virtualClock();
  const db = () => join(dir, 'mirror.db');
  const env = () => ({ LK_DATA_DIR: dir, LK_CACHE_DIR: join(dir, 'cache') });
  const sync = async (extra: string[] = []) => {
    const result = await bed.lk(['sync', '--db', db(), ...extra], { env: env() });
    expect(result.code, result.stderr).toBe(0);
    return result;
  };
  const offline = async (args: string[]) => {
    const result = await bed.lk([...args, '--offline', '--db', db(), '--json'], { key: null, env: env() });
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as { id: string; rating?: number | null }[];
  };

  beforeAll(async () => {
    // The sandbox keeps the hour too: within it, a second export is refused.
    bed = await startTestBed({ entries: ENTRIES, rateLimit: 0, exportIntervalSeconds: 3600, clock });
    // Over two pages of 100 whatever it had: the quick sync leaves them for the export.
    for (let n = 0; n < 201; n++) bed.sandbox.addNotification('demo', { title: `Notice ${n}`, message: 'A new episode aired.' });
    dir = tempDir('lk-quick-sync-');
    const first = await sync();
    expect(first.stderr).toMatch(/from the export/);
  });

  afterAll(async () => {
    await bed.sandbox.close();
  });

  it('after 10 new events and 2 new entries: at most 60 requests, and --offline answers with them', async () => {
    const ids = bed.sandbox.entryIds('demo');
    const touched = Array.from({ length: 10 }, (_, index) => ids[500 + index * 37]!);
    const events = touched.map((id) => bed.sandbox.addEvent('demo', id));
    bed.sandbox.addEntries('demo', 2);
    const [newest, second] = bed.sandbox.entryIds('demo');
    bed.sandbox.resetCounters();

    const quick = await sync();
    const { requests, byPath } = bed.sandbox.counters;
    expect(requests).toBeLessThanOrEqual(60); // every page of the library and history: 68 here (1,021 at 20,000 entries)
    expect(byPath['/v1/me']).toBe(1);
    expect(byPath['/v1/library']).toBe(1);
    expect(byPath['/v1/history']).toBe(1);
    expect(byPath['/v1/export']).toBeUndefined(); // the hour's export is the mirror's already: none asked
    for (const id of touched) expect(byPath[`/v1/library/${id}`]).toBe(1);
    expect(quick.stderr).toMatch(/ from what changed since the last sync in .*, \d+ requests: 1,202 entries, /);

    const library = await offline(['library', '--limit', '3']);
    expect(library.map((entry) => entry.id)).toEqual([newest, second, ids[0]]);
    const history = await offline(['history', '--limit', '10']);
    expect(new Set(history.map((event) => event.id))).toEqual(new Set(events));
    // lk next's order is the entries' last activity, kept by the sync: as online, the entries just watched first.
    expect(await offline(['next'])).toEqual(JSON.parse((await bed.lk(['next', '--json'])).stdout));
    // Each entry an event touched is as the server has it now.
    for (const id of touched) {
      const online = await bed.lk(['library', 'show', id, '--json']);
      expect(query(db(), 'SELECT json FROM entries WHERE id = ?', id).map((row) => JSON.parse(row.json as string) as unknown)).toEqual([
        JSON.parse(online.stdout),
      ]);
    }
    expect(query(db(), 'SELECT source FROM sync_runs ORDER BY id DESC LIMIT 1')).toEqual([{ source: 'changes' }]);
  });

  it('says in one line what waits for the next export', async () => {
    const quick = await sync();
    const lines = quick.stderr.split('\n').filter((line) => line.includes('waiting for the next export'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(WAITS);
    const quiet = await bed.lk(['sync', '-q', '--db', db()], { env: env() });
    expect(quiet.stderr).toBe('');
  }, 120_000);

  it('a second quick sync with nothing changed writes nothing', async () => {
    await sync();
    const before = itemRows(db());
    const runs = query(db(), 'SELECT count(*) AS n FROM sync_runs')[0]!.n as number;
    const again = await sync();
    expect(again.stderr).toMatch(/\(\+0 ~0 -0 rows\)/);
    expect(itemRows(db())).toEqual(before);
    expect(query(db(), 'SELECT source, rows_added, rows_changed, rows_removed FROM sync_runs WHERE id > ?', runs)).toEqual([
      { source: 'changes', rows_added: 0, rows_changed: 0, rows_removed: 0 },
    ]);
  }, 120_000);

  it('a rating set without an event is not in the mirror after the quick sync, and is after the next sync from the export', async () => {
    const rated = bed.sandbox.entryIds('demo')[987]!;
    const rating = (query(db(), 'SELECT rating FROM entries WHERE id = ?', rated)[0]!.rating as number | null) === 2 ? 3 : 2;
    bed.sandbox.rateEntry('demo', rated, rating);
    const quick = await sync();
    expect(quick.stderr.split('\n').find((line) => line.includes('waiting for the next export'))).toMatch(WAITS);
    expect(query(db(), 'SELECT rating FROM entries WHERE id = ?', rated)).not.toEqual([{ rating }]);

    // The hour over (the cached export is an hour old), the next sync reads a new export: the rating is there.
    await clock.sleep(HOUR + 60_000);
    bed.sandbox.resetCounters();
    const fromExport = await sync();
    expect(bed.sandbox.counters.exports).toBe(1);
    expect(fromExport.stderr).toMatch(/ from the export /);
    expect(fromExport.stderr).not.toContain('waiting for the next export');
    expect(query(db(), 'SELECT rating FROM entries WHERE id = ?', rated)).toEqual([{ rating }]);
    // And the mirror is the server's again, in the server's order.
    const online = JSON.parse((await bed.lk(['library', '--limit', '5', '--json'])).stdout) as { id: string }[];
    expect((await offline(['library', '--limit', '5'])).map((entry) => entry.id)).toEqual(online.map((entry) => entry.id));
  }, 120_000);
});

describeWithSqlite('a quick sync whose new events touch more entries than the library has pages', () => {
  let bed: TestBed;
  let dir: string;

  beforeAll(async () => {
    bed = await startTestBed({ entries: 150, rateLimit: 0, exportIntervalSeconds: 3600 });
    dir = tempDir('lk-quick-sync-pages-');
  });

  afterAll(async () => {
    await bed.sandbox.close();
  });

  const mirror = () => join(dir, 'mirror.db');
  const envOf = () => ({ LK_DATA_DIR: dir, LK_CACHE_DIR: join(dir, 'cache') });

  it("reads the library's two pages instead of each entry, and the mirror has them as they are now", async () => {
    const db = mirror();
    const env = envOf();
    expect((await bed.lk(['sync', '--db', db], { env })).code).toBe(0);
    const touched = bed.sandbox.entryIds('demo').slice(40, 43);
    for (const id of touched) bed.sandbox.addEvent('demo', id);
    bed.sandbox.resetCounters();
    const quick = await bed.lk(['sync', '--db', db], { env });
    expect(quick.code, quick.stderr).toBe(0);
    const { byPath } = bed.sandbox.counters;
    expect(byPath['/v1/library']).toBe(1 + 2); // the newest added (none new), then both pages
    for (const id of touched) expect(byPath[`/v1/library/${id}`]).toBeUndefined();
    const online = JSON.parse((await bed.lk(['library', '--all', '--json'])).stdout) as unknown[];
    const mirrored = query(db, 'SELECT json FROM entries ORDER BY position').map((row) => JSON.parse(row.json as string) as unknown);
    expect(mirrored).toEqual(online);
  }, 120_000);

  // On the small account so as not to read 20,000 entries' pages again: the rule is the same at any size.
  it('--full within the hour still reads every page', async () => {
    expect((await bed.lk(['sync', '--db', mirror()], { env: envOf() })).code).toBe(0);
    bed.sandbox.resetCounters();
    const full = await bed.lk(['sync', '--full', '--db', mirror()], { env: envOf() });
    expect(full.code, full.stderr).toBe(0);
    const { byPath } = bed.sandbox.counters;
    expect(full.stderr).toMatch(/ from the paginated endpoints /);
    expect(full.stderr).not.toContain('waiting for the next export');
    expect(byPath['/v1/library']).toBe(Math.ceil(150 / 100));
    expect(byPath['/v1/reviews']).toBeGreaterThanOrEqual(1);
    expect(byPath['/v1/history']).toBeGreaterThan(1);
  }, 120_000);
});
