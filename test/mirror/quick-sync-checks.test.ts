import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { startTestBed, virtualClock, type TestBed } from '../e2e/harness.js';
import { tempDir } from '../support/temp-dir.js';
import { describeWithSqlite, mirrorRows } from '../support/sqlite-node.js';

// Issue 57: a quick sync (a sync within the export hour, src/mirror/sync/quick.ts) that checks itself — its history
// window on the server's clock, pages that moved read again, the library's count against the mirror's, an export
// whose ids are not the API's — so that the mirror never misses an event or an entry, and never holds one the account
// does not have. Small accounts: the rules are the same at any size (the 20,000-entry budget is quick-sync.test.ts).

const HOUR = 60 * 60 * 1000;

/** A bed (closed when the test ends), a mirror of its own synced once from the export, and a sync that must succeed. */
async function syncedBed(options: Parameters<typeof startTestBed>[0], lkClock = virtualClock()) {
  const bed = await startTestBed({ rateLimit: 0, exportIntervalSeconds: 3600, ...options });
  onTestFinished(() => bed.sandbox.close());
  const dir = tempDir('lk-quick-checks-');
  const db = join(dir, 'mirror.db');
  const sync = async () => {
    const result = await bed.lk(['sync', '--db', db], {
      env: { LK_DATA_DIR: dir, LK_CACHE_DIR: join(dir, 'cache') },
      now: lkClock.now,
      sleep: lkClock.sleep,
    });
    expect(result.code, result.stderr).toBe(0);
    return result;
  };
  expect((await sync()).stderr).toMatch(/ from the export /);
  return { bed, db, sync, clock: lkClock };
}

const ids = (db: string, table: string) => new Set(mirrorRows(db, `SELECT id FROM ${table}`).map((row) => row.id as string));
const onlineHistoryIds = async (bed: TestBed) =>
  new Set((JSON.parse((await bed.lk(['history', '--all', '--json'])).stdout) as { id: string }[]).map((event) => event.id));

describeWithSqlite('a quick sync that checks itself', () => {
  it("takes its history window from the server's clock: a server two hours behind loses no event over two syncs", async () => {
    const clock = virtualClock();
    const { bed, db, sync } = await syncedBed({ entries: 40, now: () => clock.now() - 2 * HOUR }, clock);
    const entries = bed.sandbox.entryIds('demo');
    await clock.sleep(10 * 60_000);
    const first = [bed.sandbox.addEvent('demo', entries[3]!), bed.sandbox.addEvent('demo', entries[7]!)];
    const quick = await sync();
    expect(quick.stderr).toMatch(/ from what changed since the last sync /);
    await clock.sleep(10 * 60_000);
    const second = [bed.sandbox.addEvent('demo', entries[11]!)];
    await sync();
    const held = ids(db, 'history');
    for (const id of [...first, ...second]) expect(held.has(id), id).toBe(true);
  }, 60_000);

  it('reads the newest-added pages again when an entry is removed between two of them: no entry stepped over', async () => {
    const { bed, db, sync } = await syncedBed({ entries: 30 });
    bed.sandbox.addEntries('demo', 150);
    const [newest] = bed.sandbox.entryIds('demo');
    let removed = false;
    bed.sandbox.beforeRoute = (route, query) => {
      if (route === 'library' && query.get('page') === '2' && !removed) {
        removed = true;
        bed.sandbox.removeEntry('demo', newest!);
      }
    };
    await sync();
    expect(removed).toBe(true);
    expect(ids(db, 'entries')).toEqual(new Set(bed.sandbox.entryIds('demo')));
  }, 60_000);

  it("reads the history window again when an entry's removal moves its pages: no event stepped over", async () => {
    const { bed, db, sync } = await syncedBed({ entries: 60 });
    const entries = bed.sandbox.entryIds('demo');
    const added = Array.from({ length: 160 }, (_, index) => bed.sandbox.addEvent('demo', entries[index % 50]!));
    let removed = false;
    bed.sandbox.beforeRoute = (route, query) => {
      if (route === 'history' && query.get('page') === '2' && !removed) {
        removed = true;
        bed.sandbox.removeEntry('demo', entries[(added.length - 1) % 50]!); // the newest event's entry: on page 1
      }
    };
    await sync();
    expect(removed).toBe(true);
    const online = await onlineHistoryIds(bed);
    const held = ids(db, 'history');
    for (const id of added) if (online.has(id)) expect(held.has(id), id).toBe(true);
    expect(ids(db, 'entries')).toEqual(new Set(bed.sandbox.entryIds('demo')));
  }, 60_000);

  it('an entry removed on the server is gone from the mirror after the next quick sync, and the line says so', async () => {
    const { bed, db, sync } = await syncedBed({ entries: 40 });
    const gone = bed.sandbox.entryIds('demo')[5]!;
    bed.sandbox.removeEntry('demo', gone);
    bed.sandbox.resetCounters();
    const quick = await sync();
    expect(quick.stderr).toContain(
      "lk: the library's count differed from the mirror's: it was read whole from its pages (1 entry removed on the server, with their events)",
    );
    expect(ids(db, 'entries')).toEqual(new Set(bed.sandbox.entryIds('demo')));
    expect(mirrorRows(db, `SELECT count(*) AS n FROM history WHERE entry_id = '${gone}'`)).toEqual([{ n: 0 }]);
    // A second quick sync with nothing changed: the count agrees, nothing read whole, nothing said of it.
    const again = await sync();
    expect(again.stderr).not.toContain('read whole');
  }, 60_000);

  it("an export whose entry ids are not the API's never doubles the library: the mirror holds the account's entries", async () => {
    const { bed, db, sync } = await syncedBed({ entries: 40, exportEntryIdPrefix: 'x-' });
    expect([...ids(db, 'entries')].every((id) => id.startsWith('x-'))).toBe(true);
    bed.sandbox.addEntries('demo', 2);
    const quick = await sync();
    expect(quick.stderr).toMatch(/lk: the export names entries by other ids than the API: the library was read whole from its pages \(40 entries/);
    expect(ids(db, 'entries')).toEqual(new Set(bed.sandbox.entryIds('demo')));
    const again = await sync();
    expect(again.stderr).not.toContain('read whole');
    expect(ids(db, 'entries').size).toBe(42);
  }, 60_000);

  it("the alt variant's export carries the API's ids (UUIDs): a quick sync after it keeps the library as the account's", async () => {
    const { bed, db, sync } = await syncedBed({ entries: 40, variant: 'alt' });
    expect(ids(db, 'entries')).toEqual(new Set(bed.sandbox.entryIds('demo')));
    bed.sandbox.addEntries('demo', 2);
    const quick = await sync();
    expect(quick.stderr).not.toContain('read whole');
    expect(ids(db, 'entries')).toEqual(new Set(bed.sandbox.entryIds('demo')));
  }, 60_000);
});
