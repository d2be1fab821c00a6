import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lkSpawnArgs, startTestBed, type TestBed } from '../e2e/harness.js';
import { tempDir } from '../support/temp-dir.js';
import { until } from '../support/until.js';
import { describeWith } from '../support/outside-tools.js';
import { describeWithSqlite, describeWithoutSqlite, mirrorRows } from '../support/sqlite-node.js';

// One file for every Node: where node:sqlite exists (22.13+) it checks the mirror; on older Node it checks that the
// mirror commands refuse with one clear line while the rest of lk works. Run it under each Node of the matrix.

const ids = (json: string) => (JSON.parse(json) as { id: string }[]).map((item) => item.id);

let bed: TestBed;
let dataDir: string;

function dbFile(name: string): string {
  return join(dataDir, `${name}.db`);
}

beforeAll(async () => {
  bed = await startTestBed({ entries: 120, rateLimit: 0, exportIntervalSeconds: 0 });
  dataDir = tempDir('lk-mirror-');
});

afterAll(async () => {
  await bed.sandbox.close();
});

describeWithoutSqlite(`on Node ${process.versions.node} (no node:sqlite)`, () => {
  for (const args of [['sync'], ['search', 'amelie'], ['sql', 'SELECT 1'], ['library', '--offline']]) {
    it(`lk ${args.join(' ')} exits 1 with one line naming Node 22.13, and sends no request`, async () => {
      bed.sandbox.resetCounters();
      const result = await bed.lk(args, { env: { LK_DATA_DIR: dataDir } });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr.split('\n')[0]).toMatch(/^lk: .*needs Node 22\.13 or later.*this is Node 20/);
      expect(bed.sandbox.counters.requests).toBe(0);
    });
  }
  it('the rest of lk keeps working', async () => {
    const result = await bed.lk(['library', '--limit', '3', '--json']);
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toHaveLength(3);
  });
});

describeWithSqlite('the mirror', () => {
  describe('lk sync', () => {
    // A cache folder per mirror: a cached export from before the sandbox changed would stand for the server's state.
    const sync = (name: string, extra: string[] = [], key: string | null = 'full') =>
      bed.lk(['sync', '--db', dbFile(name), ...extra], { key, env: { LK_DATA_DIR: dataDir, LK_CACHE_DIR: join(dataDir, `cache-${name}`) } });

    it('entries hold exactly the ids of lk library --all --json, and every entry as the server sent it', async () => {
      const synced = await sync('first');
      expect(synced.code, synced.stderr).toBe(0);
      const online = await bed.lk(['library', '--all', '--json']);
      const mirrored = mirrorRows(dbFile('first'), 'SELECT json FROM entries ORDER BY position').map(
        (row) => JSON.parse(row.json as string) as unknown,
      );
      expect(mirrored).toEqual(JSON.parse(online.stdout));
      expect(mirrorRows(dbFile('first'), 'SELECT source FROM sync_runs')).toEqual([{ source: 'export' }]);
    });

    it('history holds every event, undated ones included, read from the pages when the key cannot export', async () => {
      // The library key has no export:read: the sync reads /v1/history and each entry's own history.
      const synced = await sync('pages', [], 'library');
      expect(synced.code, synced.stderr).toBe(0);
      expect(synced.stderr).toMatch(/not synced: the key lacks lists:read/);
      const exported = (await (
        await fetch(`${bed.sandbox.url}/v1/export`, { headers: { authorization: `Bearer ${bed.sandbox.key('other')}` } })
      ).json()) as { history: { id: string; date: string | null }[] };
      const mirrored = mirrorRows(dbFile('pages'), 'SELECT id, date FROM history').map((row) => row.id as string);
      expect(new Set(mirrored)).toEqual(new Set(exported.history.map((event) => event.id)));
      expect(mirrored).toHaveLength(exported.history.length);
      expect(exported.history.some((event) => event.date === null)).toBe(true);
      expect(mirrorRows(dbFile('pages'), 'SELECT count(*) AS n FROM history WHERE date IS NULL')[0]!.n).toBe(
        exported.history.filter((e) => e.date === null).length,
      );
    });

    it('after an entry added, one removed, a rating changed and an event added, a second sync makes the mirror equal again', async () => {
      expect((await sync('changes')).code).toBe(0);
      const [newest, , rated, removed, played] = bed.sandbox.entryIds('demo');
      bed.sandbox.addEntries('demo', 1);
      bed.sandbox.removeEntry('demo', removed!);
      bed.sandbox.rateEntry('demo', rated!, 3);
      const eventId = bed.sandbox.addEvent('demo', played!);
      // Within the export hour a plain sync reads only what changed (quick-sync.test.ts): --full reads every page.
      const again = await sync('changes', ['--full']);
      expect(again.code, again.stderr).toBe(0);
      const online = JSON.parse((await bed.lk(['library', '--all', '--json'])).stdout) as { id: string; rating: number | null }[];
      const mirrored = mirrorRows(dbFile('changes'), 'SELECT json FROM entries ORDER BY position').map(
        (row) => JSON.parse(row.json as string) as unknown,
      );
      expect(mirrored).toEqual(online);
      expect(online.map((entry) => entry.id)).not.toContain(removed);
      expect(online[1]!.id).toBe(newest);
      expect(mirrorRows(dbFile('changes'), 'SELECT rating FROM entries WHERE id = ?', rated!)).toEqual([{ rating: 3 }]);
      expect(mirrorRows(dbFile('changes'), 'SELECT count(*) AS n FROM history WHERE id = ?', eventId)[0]!.n).toBe(1);
      // The columns lk report reads stay those of each event's entry, work and json, the new event's included.
      expect(mirrorRows(dbFile('changes'), 'SELECT domain FROM history WHERE id = ?', eventId)[0]!.domain).toMatch(/^(MEDIA|GAMES|BOOKS|MUSIC)$/);
      const stale = `SELECT count(*) AS n FROM history h LEFT JOIN entries e ON e.id = h.entry_id LEFT JOIN works w ON w.id = coalesce(h.work_id, e.work_id)
        WHERE h.domain IS NOT coalesce(e.domain, w.domain) OR h.minutes IS NOT json_extract(h.json, '$.minutes') OR h.pages IS NOT json_extract(h.json, '$.pages')`;
      expect(mirrorRows(dbFile('changes'), stale)[0]!.n).toBe(0);
      expect(mirrorRows(dbFile('changes'), 'SELECT count(*) AS n FROM history WHERE entry_id = ?', removed!)[0]!.n).toBe(0);
      const onlineHistory = ids((await bed.lk(['history', '--all', '--json'])).stdout);
      expect(mirrorRows(dbFile('changes'), 'SELECT id FROM history WHERE date IS NOT NULL ORDER BY position').map((row) => row.id)).toEqual(
        onlineHistory,
      );
      const runs = mirrorRows(dbFile('changes'), 'SELECT source, rows_added, rows_changed, rows_removed FROM sync_runs ORDER BY id');
      expect(runs[1]).toMatchObject({ source: 'pages' });
      expect(Number(runs[1]!.rows_added)).toBeGreaterThanOrEqual(2); // the entry and the event
      expect(Number(runs[1]!.rows_removed)).toBeGreaterThanOrEqual(1);
    });

    it('-q prints nothing on success', async () => {
      const result = await sync('quiet', ['-q']);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
    });

    it('a SIGKILL in the middle of a sync leaves the previous mirror intact and readable', async () => {
      expect((await sync('killed')).code).toBe(0);
      const before = mirrorRows(dbFile('killed'), 'SELECT id, json FROM entries ORDER BY id');
      bed.sandbox.addEntries('demo', 2);
      // Stats are read last, when the entries are already written in the sync's transaction: the sandbox holds that
      // request, so the kill lands in the middle of the sync.
      bed.sandbox.faults = { rateStall: 1, stallMs: 10 * 60_000, paths: ['/v1/stats/summary'] };
      const statsAsked = () => bed.sandbox.counters.byPath['/v1/stats/summary'] ?? 0;
      const statsBefore = statsAsked();
      try {
        const child = spawn(...lkSpawnArgs(['sync', '--db', dbFile('killed')]), {
          env: { PATH: process.env.PATH, HOME: process.env.HOME, ...bed.env('full') },
        });
        await until(() => statsAsked() > statsBefore || child.exitCode !== null);
        expect(child.exitCode).toBe(null); // still syncing
        child.kill('SIGKILL');
        await new Promise((resolve) => child.on('close', resolve));
      } finally {
        bed.sandbox.faults = {};
      }
      expect(mirrorRows(dbFile('killed'), 'PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      expect(mirrorRows(dbFile('killed'), 'SELECT id, json FROM entries ORDER BY id')).toEqual(before);
      expect(mirrorRows(dbFile('killed'), 'SELECT count(*) AS n FROM sync_runs')[0]!.n).toBe(1);
      // The next sync takes over the dead one's lock and converges.
      const next = await sync('killed');
      expect(next.code, next.stderr).toBe(0);
      expect(mirrorRows(dbFile('killed'), 'SELECT id FROM entries ORDER BY position').map((row) => row.id)).toEqual(bed.sandbox.entryIds('demo'));
    });

    it('two syncs at once both succeed and leave one consistent mirror', async () => {
      const [a, b] = await Promise.all([sync('twice'), sync('twice')]);
      expect([a.code, b.code], a.stderr + b.stderr).toEqual([0, 0]);
      expect(mirrorRows(dbFile('twice'), 'PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      expect(mirrorRows(dbFile('twice'), 'SELECT count(*) AS n FROM sync_runs')[0]!.n).toBe(2);
      expect(mirrorRows(dbFile('twice'), 'SELECT id FROM entries ORDER BY position').map((row) => row.id)).toEqual(bed.sandbox.entryIds('demo'));
    });

    describeWith(['python3'], 'with python3', () => {
      it("python's sqlite3 opens the mirror, full-text tables included", async () => {
        expect((await sync('python')).code).toBe(0);
        const script = `import sqlite3, sys\nc = sqlite3.connect('file:' + sys.argv[1] + '?mode=ro', uri=True)\nprint(c.execute('select count(*) from entries').fetchone()[0])\nprint(c.execute("select count(*) from entries_fts where entries_fts match 'amelie'").fetchone()[0])`;
        const result = spawnSync('python3', ['-c', script, dbFile('python')], { encoding: 'utf8' });
        expect(result.stderr).toBe('');
        expect(result.stdout.trim().split('\n')).toEqual([String(bed.sandbox.entryIds('demo').length), '1']);
      });
    });
  });

  describe('lk sql, lk search and --offline', () => {
    const file = () => dbFile('read');
    // A sandbox of its own, which no other test changes.
    let bed: TestBed;
    const offline = (args: string[]) => bed.lk([...args, '--offline', '--db', file()], { key: null });

    beforeAll(async () => {
      bed = await startTestBed({ entries: 120, rateLimit: 0 });
      const result = await bed.lk(['sync', '--db', file()]);
      expect(result.code, result.stderr).toBe(0);
    });

    afterAll(async () => {
      await bed.sandbox.close();
    });

    for (const write of [
      'DELETE FROM entries',
      "INSERT INTO stats(id, json) VALUES ('x', '{}')",
      'DROP TABLE history',
      'UPDATE entries SET rating = 1',
    ]) {
      it(`lk sql refuses a write with exit 2: ${write}`, async () => {
        const before = mirrorRows(file(), 'SELECT count(*) AS n, sum(rating) AS r FROM entries');
        const result = await bed.lk(['sql', write, '--db', file()], { key: null });
        expect(result.code).toBe(2);
        expect(result.stdout).toBe('');
        expect(result.stderr).toMatch(/^lk: lk sql is read-only/m);
        expect(mirrorRows(file(), 'SELECT count(*) AS n, sum(rating) AS r FROM entries')).toEqual(before);
      });
    }

    it('lk sql writes rows through the formatters (csv with a header, json as objects)', async () => {
      const csv = await bed.lk(['sql', 'SELECT phase, count(*) AS n FROM entries GROUP BY phase ORDER BY phase', '--csv', '--db', file()], {
        key: null,
      });
      expect(csv.code).toBe(0);
      expect(csv.stdout.split('\n')[0]).toBe('phase,n');
      const json = JSON.parse(
        (
          await bed.lk(['sql', "SELECT count(*) AS n FROM entries WHERE json_extract(json, '$.url') IS NOT NULL", '--json', '--db', file()], {
            key: null,
          })
        ).stdout,
      ) as { n: number }[];
      expect(json).toEqual([{ n: bed.sandbox.entryIds('demo').length }]);
    });

    it('lk sql --schema is text: --json, --fields, --jq, --no-header and --csv-safe are refused in one line, not ignored', async () => {
      for (const flags of [['--json'], ['--csv'], ['--fields', 'name'], ['--jq', '.'], ['--no-header'], ['--csv-safe']]) {
        const result = await bed.lk(['sql', '--schema', '--db', file(), ...flags], { key: null });
        expect(result.code, flags.join(' ')).toBe(2);
        expect(result.stdout).toBe('');
        expect(result.stderr).toMatch(/^lk: --[\w-]+( \w+)? does not apply to lk sql --schema\n$/);
      }
    });

    it('lk sql --schema prints the tables, the full-text tables and the views', async () => {
      const result = await bed.lk(['sql', '--schema', '--db', file()], { key: null });
      expect(result.code).toBe(0);
      for (const name of [
        'works',
        'entries',
        'history',
        'lists',
        'list_items',
        'reviews',
        'achievements',
        'notifications',
        'calendar',
        'sync_runs',
        'profile',
        'stats',
      ]) {
        expect(result.stdout).toContain(`CREATE TABLE ${name} (`);
      }
      expect(result.stdout).toMatch(/CREATE VIRTUAL TABLE entries_fts USING fts5\(.*content="entries"/);
      expect(result.stdout).toContain('CREATE VIEW library AS');
    });

    it('lk search finds a title without its accent, by prefix and in any case, and --domain filters', async () => {
      for (const text of ['amelie', 'AMÉL', 'Amél']) {
        const result = await bed.lk(['search', text, '--json', '--db', file()], { key: null });
        expect(result.code, result.stderr).toBe(0);
        expect((JSON.parse(result.stdout) as { work: { title: string } }[]).map((entry) => entry.work.title)).toContain('Amélie');
      }
      const games = await bed.lk(['search', 'amelie', '--domain', 'GAMES', '--json', '--db', file()], { key: null });
      expect(JSON.parse(games.stdout)).toEqual([]);
    });

    it('lk search --phase takes the values lk library --phase takes (done, in-progress), and refuses a bad one in the same words', async () => {
      const search = (phase: string) => bed.lk(['search', 'the', '--phase', phase, '--all', '--json', '--db', file()], { key: null });
      const exact = await search('DONE');
      expect(exact.code, exact.stderr).toBe(0);
      expect(JSON.parse(exact.stdout)).not.toEqual([]);
      for (const phase of ['done', 'Done']) {
        const friendly = await search(phase);
        expect(friendly.code, friendly.stderr).toBe(0);
        expect(friendly.stdout).toBe(exact.stdout);
      }
      expect((await search('in-progress')).stdout).toBe((await search('IN_PROGRESS')).stdout);
      const refused = await search('finished');
      expect(refused.code).toBe(2);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toBe((await bed.lk(['library', '--phase', 'finished'], { key: null })).stderr);
    });

    it('lk search finds words of notes and reviews, ranked', async () => {
      const noted = await bed.lk(['search', 'switch', '--json', '--db', file()], { key: null });
      expect((JSON.parse(noted.stdout) as { notes: string }[]).some((entry) => /Switch/.test(entry.notes))).toBe(true);
      const review = mirrorRows(file(), 'SELECT r.body, r.entry_id FROM reviews r JOIN entries e ON e.id = r.entry_id LIMIT 1')[0]!;
      const word = (review.body as string).split(/\W+/).find((w) => w.length > 6)!;
      const found = ids((await bed.lk(['search', word, '--json', '--db', file()], { key: null })).stdout);
      expect(found).toContain(review.entry_id);
    });

    it('lk search ranks each entry by its best match (bm25), then in library order; a page is a window of that order', async () => {
      // The rule, worked out here from each full-text table on its own: an entry's best (lowest) bm25 of its title and
      // notes, its work's original title and its reviews.
      const match = '"the"*';
      const best = new Map<string, number>();
      const found = (rows: Record<string, unknown>[]) => {
        for (const { id, rank } of rows) best.set(id as string, Math.min(best.get(id as string) ?? Infinity, rank as number));
      };
      found(
        mirrorRows(
          file(),
          'SELECT e.id, bm25(entries_fts) AS rank FROM entries_fts JOIN entries e ON e.rowid = entries_fts.rowid WHERE entries_fts MATCH ?',
          match,
        ),
      );
      found(
        mirrorRows(
          file(),
          'SELECT e.id, bm25(works_fts) AS rank FROM works_fts JOIN works w ON w.rowid = works_fts.rowid JOIN entries e ON e.work_id = w.id WHERE works_fts MATCH ?',
          `original_title : (${match})`,
        ),
      );
      found(
        mirrorRows(
          file(),
          `SELECT e.id, bm25(reviews_fts) AS rank FROM reviews_fts JOIN reviews r ON r.rowid = reviews_fts.rowid
           JOIN entries e ON e.id = r.entry_id OR (r.entry_id IS NULL AND e.work_id = r.work_id) WHERE reviews_fts MATCH ?`,
          match,
        ),
      );
      const position = new Map(mirrorRows(file(), 'SELECT id, position FROM entries').map((row) => [row.id as string, row.position as number]));
      const libraryOrder = (a: string, b: string) => position.get(a)! - position.get(b)!;
      const expected = [...best.keys()].sort((a, b) => best.get(a)! - best.get(b)! || libraryOrder(a, b));
      const all = ids((await bed.lk(['search', 'the', '--all', '--json', '--db', file()], { key: null })).stdout);
      expect(all.length).toBeGreaterThan(21);
      expect(all).toEqual(expected);
      // The rank decides, not the library order alone.
      expect(all).not.toEqual([...all].sort(libraryOrder));
      const page = ids((await bed.lk(['search', 'the', '--limit', '7', '--page', '3', '--json', '--db', file()], { key: null })).stdout);
      expect(page).toEqual(all.slice(14, 21));
    });

    const sameAsOnline: [string, string[]][] = [
      ['library', []],
      ['library', ['--all']],
      ['library', ['--phase', 'DONE', '--all']],
      ['library', ['--domain', 'BOOKS', '--all']],
      ['library', ['--sort', 'title', '--all']],
      ['library', ['--sort', 'title', '--order', 'asc', '--all']],
      ['library', ['--sort', 'rating', '--all']],
      ['library', ['--sort', 'rating', '--order', 'asc', '--all']],
      ['library', ['--sort', 'finished', '--all']],
      ['library', ['--sort', 'finished', '--order', 'asc', '--phase', 'DONE', '--all']],
      ['library', ['--page', '3', '--limit', '7']],
      ['library', ['--max', '33']],
      ['history', ['--all']],
      ['history', ['--domain', 'GAMES', '--all']],
      ['history', ['--from', '2025-01-01', '--to', '2025-06-30', '--all']],
      ['history', ['--limit', '5', '--page', '2']],
      ['lists', ['--all']],
      ['reviews', ['--all']],
      ['reviews', ['--domain', 'BOOKS', '--all']],
      ['notifications', ['--all']],
      ['calendar', []],
    ];
    for (const [command, args] of sameAsOnline) {
      it(`lk ${command} ${args.join(' ')} --offline gives the ids and order of the server, without key or request`, async () => {
        const online = await bed.lk([command, ...args, '--json']);
        expect(online.code, online.stderr).toBe(0);
        bed.sandbox.resetCounters();
        const local = await offline([command, ...args, '--json']);
        expect(local.code, local.stderr).toBe(0);
        expect(bed.sandbox.counters.requests).toBe(0);
        expect(ids(local.stdout)).toEqual(ids(online.stdout));
        expect(ids(local.stdout).length).toBeGreaterThan(0);
        // In a pipe (cron mails stderr) a fresh mirror says nothing of its age, unless LK_DEBUG asks where data came from.
        expect(local.stderr).not.toMatch(/data as of/);
        const told = await bed.lk([command, ...args, '--json', '--offline', '--db', file()], { key: null, env: { LK_DEBUG: '1' } });
        expect(told.stderr).toMatch(/^lk: from the mirror .*: data as of \d+s ago/m);
      });
    }

    it('a mirror not synced for a week says so even in a pipe, with what to do', async () => {
      const weekLater = Date.now() + 8 * 24 * 3600 * 1000;
      const local = await bed.lk(['library', '--offline', '--db', file(), '--json'], { key: null, now: () => weekLater });
      expect(local.code, local.stderr).toBe(0);
      expect(local.stderr).toMatch(/^lk: from the mirror .*: data as of \d+h ago \(synced 192h ago\); lk sync brings it up to date$/m);
    });

    it('lk stats --offline prints the stats summary of the last sync', async () => {
      const online = await bed.lk(['stats', '--json']);
      const local = await offline(['stats', '--json']);
      expect(local.code).toBe(0);
      expect(JSON.parse(local.stdout)).toEqual(JSON.parse(online.stdout));
    });

    it('--offline with no mirror says to run lk sync (exit 1)', async () => {
      const result = await bed.lk(['library', '--offline', '--db', join(dataDir, 'none.db')], { key: null });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^lk: no mirror at .*none\.db/m);
      expect(result.stderr).toMatch(/lk sync/);
    });

    it('the default mirror is <LK_DATA_DIR>/<profile>.db', async () => {
      const own = tempDir('lk-data-');
      expect((await bed.lk(['sync', '-q'], { env: { LK_DATA_DIR: own, LK_PROFILE: 'work' } })).code).toBe(0);
      expect(mirrorRows(join(own, 'work.db'), 'SELECT count(*) AS n FROM entries')[0]!.n).toBe(bed.sandbox.entryIds('demo').length);
    });
  });
});
