import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lkSpawnArgs, outputOf, type TestBed } from '../e2e/harness.js';
import { childrenOf, running } from '../support/processes.js';
import { RUNAWAY, syncedMirror } from '../support/synced-mirror.js';
import { until } from '../support/until.js';
import { describeWithSqlite, describeWithoutSqlite } from '../support/sqlite-node.js';

/**
 * lk sql only reads (issue 24, item 3), and no query outlives a signal or --timeout (item 4). Run under each Node of
 * the matrix: 24 and later refuse through SQLite's authorizer, 22 through the statement's compiled program.
 */

let bed: TestBed;
let dir: string;
let db: string;

beforeAll(async () => {
  ({ bed, dir, db } = await syncedMirror(30, 'lk-sql-safety-'));
});
afterAll(async () => {
  await bed.sandbox.close();
});

const sql = (query: string, extra: string[] = []) => bed.lk(['sql', '-q', query, '--db', db, ...extra]);

describeWithoutSqlite(`on Node ${process.versions.node} (no node:sqlite)`, () => {
  it(`on Node ${process.versions.node}, lk sql refuses with one line naming Node 22.13`, async () => {
    const result = await sql(`VACUUM INTO '${join(dir, 'copy.db')}'`);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^lk: lk sql needs Node 22\.13 or later/);
    // Issue 44: the ways to a Node that reads it, the single file first.
    expect(result.stderr).toMatch(/lk's single file, which carries its own Node \(the release binary `lk`, or `npm run sea`.*nodejs\.org/);
    expect(existsSync(join(dir, 'copy.db'))).toBe(false);
  });
});

describeWithSqlite('lk sql on a mirror', () => {
  describe('lk sql refuses whatever is not a read, exit 2 with one line', () => {
    it.each([
      ['VACUUM INTO a new file', (d: string) => `VACUUM INTO '${join(d, 'copy.db')}'`],
      ['ATTACH of a new file', (d: string) => `ATTACH '${join(d, 'new.db')}' AS other`],
      ['ATTACH of an existing file', (d: string) => (writeFileSync(join(d, 'existing.db'), ''), `ATTACH '${join(d, 'existing.db')}' AS other`)],
      ['INSERT', () => "INSERT INTO mirror_meta (key, value) VALUES ('x', 'y')"],
      ['UPDATE', () => 'UPDATE entries SET rating = 1'],
      ['DELETE', () => 'DELETE FROM entries'],
      ['CREATE TABLE', () => 'CREATE TABLE x (a)'],
      ['CREATE TEMP TABLE', () => 'CREATE TEMP TABLE x (a)'],
      ['DROP', () => 'DROP TABLE entries'],
      ['PRAGMA user_version=5', () => 'PRAGMA user_version = 5'],
      ['PRAGMA journal_mode=delete', () => 'PRAGMA journal_mode = delete'],
      ['load_extension()', (d: string) => `SELECT load_extension('${join(d, 'nothing.so')}')`],
      // Refused alike on every Node line (issue 33): on 22 these once ran.
      ['PRAGMA query_only=OFF', () => 'PRAGMA query_only = OFF'],
      ['PRAGMA writable_schema=1', () => 'PRAGMA writable_schema = 1'],
      ['BEGIN', () => 'BEGIN'],
      ['SAVEPOINT', () => 'SAVEPOINT a'],
      ['PRAGMA wal_checkpoint', () => 'PRAGMA wal_checkpoint'],
      ['EXPLAIN of a DELETE', () => 'EXPLAIN DELETE FROM entries'],
    ])('%s', async (_name, query) => {
      const scratch = mkdtempSync(join(dir, 'refusal-'));
      const text = query(scratch);
      const before = readdirSync(scratch);
      const result = await sql(text);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^lk: lk sql is read-only: .+\nOnly queries that read/);
      expect(readdirSync(scratch)).toEqual(before);
      const still = await sql('SELECT count(*) AS n FROM entries', ['--json']);
      expect(JSON.parse(still.stdout)).toEqual([{ n: 30 }]);
    });
  });

  describe('reads still work', () => {
    it.each([
      ['a SELECT', 'SELECT count(*) AS n FROM entries', [{ n: 30 }]],
      ['a CTE', 'WITH done AS (SELECT id FROM entries) SELECT count(*) AS n FROM done', [{ n: 30 }]],
      ['a bounded recursive CTE', 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 5) SELECT sum(x) AS s FROM c', [{ s: 15 }]],
      ['PRAGMA user_version', 'PRAGMA user_version', [{ user_version: expect.any(Number) as number }]],
    ])('%s', async (_name, query, rows) => {
      const result = await sql(query, ['--json']);
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual(rows);
    });

    it('PRAGMA table_info(entries) lists the columns', async () => {
      const result = await sql('PRAGMA table_info(entries)', ['--json']);
      expect(result.code, result.stderr).toBe(0);
      expect((JSON.parse(result.stdout) as { name: string }[]).map((column) => column.name)).toContain('work_id');
    });

    it('a full-text query on entries_fts', async () => {
      const result = await sql("SELECT count(*) AS n FROM entries_fts WHERE entries_fts MATCH 'a*'", ['--json']);
      expect(result.code, result.stderr).toBe(0);
      expect((JSON.parse(result.stdout) as { n: number }[])[0]!.n).toBeGreaterThan(0);
    });
  });

  describe('a runaway query is stopped', () => {
    it('--timeout 1 ends it: exit 1 with one line naming --timeout, and no query process left', async () => {
      const result = await sql(RUNAWAY, ['--timeout', '1']);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^lk: the query on the mirror ran longer than 1s \(--timeout\) and was stopped\n/);
      // lk ran in this process: its query process (still this process's child, so its watcher alone would not end it).
      await until(() => childrenOf(process.pid, db).length === 0);
    });

    it.each([
      ['SIGTERM', 143],
      ['SIGINT', 130],
    ] as const)('%s ends lk sql with exit %i, and its query process with it', async (signal, code) => {
      const child = spawn(...lkSpawnArgs(['sql', RUNAWAY, '--db', db, '--timeout', '600']), {
        // LK_DEBUG: lk names the mirror it opened (in a pipe, only then).
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...bed.env(null), LK_CACHE_DIR: join(dir, 'cache'), LK_DEBUG: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const done = outputOf(child, 20_000);
      // The mirror is open (its age printed): the query is the next thing lk does.
      await new Promise<void>((resolve) => {
        let seen = '';
        child.stderr.on('data', (chunk: Buffer) => {
          seen += chunk.toString();
          if (seen.includes('lk: from the mirror')) resolve();
        });
      });
      await until(() => childrenOf(child.pid!).length === 1);
      const [query] = childrenOf(child.pid!);
      child.kill(signal);
      expect((await done).code).toBe(code);
      await until(() => !running(query!));
    });
  });
});
