import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMirrorReader } from '../../src/mirror/query-process.js';
import { LkError } from '../../src/util/errors.js';
import { lkSpawnArgs, ndjsonLines, type TestBed } from '../e2e/harness.js';
import { childrenOf, running } from '../support/processes.js';
import { RUNAWAY, syncedMirror } from '../support/synced-mirror.js';
import { tempDir } from '../support/temp-dir.js';
import { until } from '../support/until.js';
import { describeWithSqlite, describeWithoutSqlite } from '../support/sqlite-node.js';

/**
 * Issue 33, reading the mirror: offline listings in one pass, lk sql exact (every column), one statement, streamed,
 * and no query process left once lk has gone, however it went. Run under each Node of the matrix (22.13+).
 */

interface Sqlite {
  DatabaseSync: { prototype: { prepare(sql: string): unknown } } & (new (
    path: string,
    options?: { readOnly?: boolean },
  ) => {
    prepare(sql: string): { all(): Record<string, unknown>[] };
    close(): void;
  });
}

const RUNAWAY_ROWS = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x FROM c';

let bed: TestBed;
let db: string;

beforeAll(async () => {
  ({ bed, db } = await syncedMirror(60, 'lk-mirror-reads-'));
});
afterAll(async () => {
  await bed.sandbox.close();
});

describeWithoutSqlite(`on Node ${process.versions.node} (no node:sqlite)`, () => {
  it(`on Node ${process.versions.node}, history --offline --from 7d and lk sql refuse with one line naming Node 22.13`, async () => {
    for (const args of [
      ['history', '--offline', '--from', '7d'],
      ['sql', 'SELECT 1'],
    ]) {
      const result = await bed.lk([...args, '--db', db], { key: null });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^lk: .*needs Node 22\.13 or later/);
    }
  });
});

describeWithSqlite('reads of the mirror', () => {
  describe('offline reads', () => {
    it('history --offline --all reads the mirror in one listing statement, never a statement per page from an OFFSET', async () => {
      const sqlite = createRequire(import.meta.url)('node:sqlite') as Sqlite;
      const prototype = sqlite.DatabaseSync.prototype;
      const prepare = prototype.prepare;
      const statements: string[] = [];
      prototype.prepare = function (this: unknown, sql: string) {
        statements.push(sql);
        return prepare.call(this, sql);
      };
      let result;
      try {
        result = await bed.lk(['history', '--offline', '--all', '--limit', '5', '--json', '--db', db], { key: null });
      } finally {
        prototype.prepare = prepare;
      }
      expect(result.code, result.stderr).toBe(0);
      const events = JSON.parse(result.stdout) as unknown[];
      expect(events.length).toBeGreaterThan(5 * 4); // many pages of 5
      const listing = statements.filter((sql) => /\bFROM history\b/.test(sql) && /\bjson\b/.test(sql));
      expect(listing).toHaveLength(1);
    });

    it('history --from 7d --offline gives what the server gives for --from 7d', async () => {
      const online = await bed.lk(['history', '--from', '7d', '--all', '--json']);
      const local = await bed.lk(['history', '--from', '7d', '--all', '--json', '--offline', '--db', db], { key: null });
      expect(local.code, local.stderr).toBe(0);
      const ids = (text: string) => (JSON.parse(text) as { id: string }[]).map((event) => event.id);
      expect(ids(online.stdout).length).toBeGreaterThan(0);
      expect(ids(local.stdout)).toEqual(ids(online.stdout));
    });

    it("--lang with --offline: the account's language reads the mirror; another is refused (exit 2), not ignored", async () => {
      const profile = JSON.parse((await bed.lk(['profile', '--json'])).stdout) as { language: string };
      const same = await bed.lk(['library', '--offline', '--lang', profile.language, '--json', '--db', db], { key: null });
      expect(same.code, same.stderr).toBe(0);
      const other = ['en', 'fr', 'it'].find((lang) => lang !== profile.language)!;
      const refused = await bed.lk(['library', '--offline', '--lang', other, '--json', '--db', db], { key: null });
      expect(refused.code).toBe(2);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toMatch(new RegExp(`^lk: --lang ${other} with --offline: the mirror holds its titles in ${profile.language}`, 'm'));
    });

    it('lk calendar --offline --lang another --format ics: refused as the listing is (same line, exit 2), no feed written', async () => {
      const profile = JSON.parse((await bed.lk(['profile', '--json'])).stdout) as { language: string };
      const other = ['en', 'fr', 'it'].find((lang) => lang !== profile.language)!;
      const listing = await bed.lk(['calendar', '--offline', '--lang', other, '--json', '--db', db], { key: null });
      expect(listing.code).toBe(2);
      const feedFile = join(tempDir('lk-calendar-lang-'), 'lk.ics');
      for (const where of [[], ['-o', feedFile]]) {
        const feed = await bed.lk(['calendar', '--offline', '--lang', other, '--format', 'ics', ...where, '--db', db], { key: null });
        expect(feed.code, where.join(' ')).toBe(2);
        expect(feed.stdout).toBe('');
        expect(feed.stderr).toBe(listing.stderr);
        expect(feed.stderr).toMatch(new RegExp(`^lk: --lang ${other} with --offline: the mirror holds its titles in ${profile.language}`, 'm'));
      }
      expect(existsSync(feedFile)).toBe(false);
      const same = await bed.lk(['calendar', '--offline', '--lang', profile.language, '--format', 'ics', '--db', db], { key: null });
      expect(same.code, same.stderr).toBe(0);
      expect(same.stdout).toMatch(/^BEGIN:VCALENDAR/);
    });
  });

  describe('lk sql is exact', () => {
    const sql = (query: string, extra: string[] = []) => bed.lk(['sql', '-q', query, '--db', db, ...extra], { key: null });

    it('two columns named id keep both values: id and id:1, in every format', async () => {
      const query = 'SELECT e.id, w.id FROM entries e JOIN works w ON w.id = e.work_id ORDER BY e.position LIMIT 3';
      const expected = await sql('SELECT e.id AS entry, w.id AS work FROM entries e JOIN works w ON w.id = e.work_id ORDER BY e.position LIMIT 3', [
        '--json',
      ]);
      const pairs = (JSON.parse(expected.stdout) as { entry: string; work: string }[]).map(({ entry, work }) => ({ id: entry, 'id:1': work }));
      expect(JSON.parse((await sql(query, ['--json'])).stdout)).toEqual(pairs);
      expect(ndjsonLines((await sql(query, ['--ndjson'])).stdout)).toEqual(pairs);
      const csv = (await sql(query, ['--csv'])).stdout.trim().split('\n');
      expect(csv).toEqual(['id,id:1', ...pairs.map((pair) => `${pair.id},${pair['id:1']}`)]);
      const tsv = (await sql(query, ['--tsv'])).stdout.trim().split('\n');
      expect(tsv[0]).toBe('id\tid:1');
    });

    it('each pipe format writes the rows byte for byte as fixed here (numbers, NULL, quotes, newlines, tabs, escapes, BLOBs)', async () => {
      const query =
        `SELECT 1 AS n, 2.5 AS r, NULL AS z, 'a,"b"' AS q, 'one' || char(10) || 'two' || char(9) || 'three\\' AS t, ` +
        `'é ☃ ' || char(27) || '[31m' AS u, x'00ff10' AS b ` +
        `UNION ALL SELECT -7, 1e300, 'x', '=1+1', '', 'plain', x''`;
      const rows = [
        { n: 1, r: 2.5, z: null, q: 'a,"b"', t: 'one\ntwo\tthree\\', u: 'é ☃ \u001b[31m', b: { $base64: true, encoded: 'AP8Q' } },
        { n: -7, r: 1e300, z: 'x', q: '=1+1', t: '', u: 'plain', b: { $base64: true, encoded: '' } },
      ];
      const lines = rows.map((row) => JSON.stringify(row));
      const expected = {
        '--json': `[\n${lines.join(',\n')}\n]\n`,
        '--ndjson': `${lines.join('\n')}\n`,
        // A pipe gets csv exact (the escape character too); tsv escapes its separators and defuses control characters.
        '--csv': 'n,r,z,q,t,u,b\n1,2.5,,"a,""b""","one\ntwo\tthree\\",é ☃ \u001b[31m,AP8Q\n-7,1e+300,x,=1+1,,plain,\n',
        '--tsv': 'n\tr\tz\tq\tt\tu\tb\n1\t2.5\t\ta,"b"\tone\\ntwo\\tthree\\\\\té ☃ \ufffd[31m\tAP8Q\n-7\t1e+300\tx\t=1+1\t\tplain\t\n',
      };
      for (const [format, bytes] of Object.entries(expected)) {
        const result = await sql(query, [format]);
        expect(result.code, result.stderr).toBe(0);
        expect(result.stdout, format).toBe(bytes);
      }
    });

    it('SELECT * over a join keeps a key for every column of both tables', async () => {
      const sqlite = createRequire(import.meta.url)('node:sqlite') as Sqlite;
      const own = new sqlite.DatabaseSync(db, { readOnly: true });
      const count = (table: string) => own.prepare(`SELECT count(*) AS n FROM pragma_table_info('${table}')`).all()[0]!.n as number;
      const columns = count('entries') + count('works');
      own.close();
      const result = await sql('SELECT * FROM entries e JOIN works w ON w.id = e.work_id LIMIT 1', ['--json']);
      expect(Object.keys((JSON.parse(result.stdout) as object[])[0]!)).toHaveLength(columns);
    });

    it('more than one statement: exit 2, one line, and not even the first runs', async () => {
      const result = await sql('SELECT 1 AS one; SELECT 2 AS two', ['--json']);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^lk: lk sql runs one statement; .*SELECT 2 AS two\n/);
    });

    it('a trailing ; and trailing comments are one statement', async () => {
      const result = await sql('SELECT 1 AS one; -- the count\n/* done */', ['--json']);
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual([{ one: 1 }]);
    });
  });

  describe('lk sql streams, and no query outlives lk', () => {
    const env = () => ({ PATH: process.env.PATH, HOME: process.env.HOME, ...bed.env(null) });

    it('| head -1: the first row of an endless result comes out, and once the reader has gone lk and its query process end', async () => {
      const lk = spawn(...lkSpawnArgs(['sql', RUNAWAY_ROWS, '--ndjson', '--db', db, '--timeout', '600']), {
        env: env(),
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      const exited = new Promise<void>((resolve) => lk.on('exit', () => resolve()));
      const first = await new Promise<string>((resolve) => {
        let seen = '';
        lk.stdout.on('data', (chunk: Buffer) => {
          seen += chunk.toString();
          if (seen.includes('\n')) resolve(seen.split('\n')[0]!);
        });
      });
      expect(JSON.parse(first)).toEqual({ x: 1 });
      const query = childrenOf(lk.pid!);
      expect(query).toHaveLength(1);
      lk.stdout.destroy(); // as head does once it has its line
      await exited;
      await until(() => query.every((pid) => !running(pid)));
    });

    it('lk killed with SIGKILL during a runaway query: its query process ends too', async () => {
      const lk = spawn(...lkSpawnArgs(['sql', RUNAWAY, '--db', db, '--timeout', '600']), {
        env: { ...env(), LK_DEBUG: '1' }, // lk names the mirror it opened (in a pipe, only then)
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      await new Promise<void>((resolve) => {
        let seen = '';
        lk.stderr.on('data', (chunk: Buffer) => {
          seen += chunk.toString();
          if (seen.includes('lk: from the mirror')) resolve();
        });
      });
      await until(() => childrenOf(lk.pid!).length === 1);
      const [query] = childrenOf(lk.pid!);
      lk.kill('SIGKILL');
      await until(() => !running(query!));
    });
  });

  describe('the reader lk mcp builds on (openMirrorReader)', () => {
    const open = () => openMirrorReader(db, 'test', 600);

    it('maxRows stops an endless result there and says it cut; a result within the cap is not cut', async () => {
      const reader = open();
      try {
        const endless = await reader.query(RUNAWAY_ROWS, { maxRows: 10 });
        const rows = [];
        for await (const batch of endless) rows.push(...batch);
        expect(rows).toEqual(Array.from({ length: 10 }, (_, i) => ({ x: i + 1 })));
        expect(endless.cut).toBe(true);
        const all = await reader.query('SELECT count(*) AS n FROM entries', { maxRows: 10 });
        const counted = [];
        for await (const batch of all) counted.push(...batch);
        expect(counted).toEqual([{ n: 60 }]);
        expect(all.cut).toBe(false);
      } finally {
        reader.close();
      }
    });

    it('leaving the rows early stops the statement: the next call is answered', async () => {
      const reader = open();
      try {
        for await (const batch of await reader.query(RUNAWAY_ROWS)) {
          expect(batch[0]).toEqual({ x: 1 });
          break;
        }
        expect(await reader.sql('SELECT 1 AS one')).toEqual([{ one: 1 }]);
      } finally {
        reader.close();
      }
    });

    it('close() ends a running query at once (its --timeout is 600 s)', async () => {
      const reader = open();
      const running = reader.sql(RUNAWAY);
      reader.close();
      await expect(running).rejects.toBeInstanceOf(LkError);
    });

    it('an AbortSignal cancels its call', async () => {
      const reader = open();
      try {
        const controller = new AbortController();
        const running = reader.sql(RUNAWAY, { signal: controller.signal });
        controller.abort();
        await expect(running).rejects.toThrow(/cancelled/);
      } finally {
        reader.close();
      }
    });
  });
});
