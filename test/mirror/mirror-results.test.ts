import { readdirSync, readlinkSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ndjsonLines, type TestBed } from '../e2e/harness.js';
import { syncedMirror } from '../support/synced-mirror.js';
import { until } from '../support/until.js';
import { queryProcessesOf } from './mcp-support.js';
import { describeWithSqlite, describeWithoutSqlite } from '../support/sqlite-node.js';

/**
 * Issue 35: lk search, lk sql and the --offline listings return their result to the wrapper, which shows it while the
 * mirror is still open; what the run opened (the mirror in lk's process, lk sql's query process) is let go once the
 * result is shown, when showing fails, and when the run fails after opening it. lk runs in this process here, so what
 * it leaves open is this process's own.
 */

let bed: TestBed;
let db: string;

beforeAll(async () => {
  ({ bed, db } = await syncedMirror(60, 'lk-mirror-results-'));
});
afterAll(async () => {
  await bed.sandbox.close();
});

/** This process's open files on the mirror (its -wal and -shm included). */
function mirrorFilesOpen(): string[] {
  return readdirSync('/proc/self/fd')
    .map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return ''; // closed while we looked
      }
    })
    .filter((target) => target.startsWith(db));
}

const lk = (args: string[]) => bed.lk([...args, '--db', db], { key: null });

describeWithoutSqlite(`on Node ${process.versions.node} (no node:sqlite)`, () => {
  it(`on Node ${process.versions.node}, lk search, lk stats --offline and lk sql refuse with one line naming Node 22.13, nothing on stdout`, async () => {
    for (const args of [
      ['search', 'the'],
      ['stats', '--offline'],
      ['sql', 'SELECT 1'],
    ]) {
      const result = await lk(args);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^lk: .*needs Node 22\.13 or later/);
    }
  });
});

describeWithSqlite('results read from the mirror', () => {
  describe('a result read from the mirror', () => {
    it('shown whole: every row written, and the mirror closed afterwards', async () => {
      expect(mirrorFilesOpen()).toEqual([]);
      for (const args of [
        ['library', '--offline', '--all', '--ndjson'],
        ['history', '--offline', '--all', '--ndjson'],
        ['search', 'the', '--all', '--ndjson'],
      ]) {
        const result = await lk(args);
        expect(result.code, result.stderr).toBe(0);
        expect(ndjsonLines(result.stdout).length, args.join(' ')).toBeGreaterThan(20);
        expect(mirrorFilesOpen(), args.join(' ')).toEqual([]);
      }
      const stats = await lk(['stats', '--offline', '--json']);
      expect(stats.code, stats.stderr).toBe(0);
      expect(JSON.parse(stats.stdout)).toBeTypeOf('object');
      expect(mirrorFilesOpen()).toEqual([]);
    });

    it('failing while it is shown (lk search refuses --page 0 as it reads the pages): exit 2, one line, the mirror closed', async () => {
      const result = await lk(['search', 'the', '--page', '0', '-q']);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^lk: .*--page/);
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(mirrorFilesOpen()).toEqual([]);
    });

    it('refused by the run once the mirror is open (--lang the mirror does not hold): exit 2, the mirror closed', async () => {
      const profile = JSON.parse((await bed.lk(['profile', '--json'])).stdout) as { language: string };
      const other = ['en', 'fr', 'it'].find((lang) => lang !== profile.language)!;
      for (const command of ['library', 'history', 'reviews']) {
        const result = await lk([command, '--offline', '--lang', other, '--json']);
        expect(result.code, command).toBe(2);
        expect(result.stdout).toBe('');
        expect(mirrorFilesOpen(), command).toEqual([]);
      }
    });
  });

  describe('lk sql: its rows streamed by the wrapper, its query process ended after', () => {
    it('every row of SELECT * FROM history, and no query process left', async () => {
      const count = JSON.parse((await lk(['sql', 'SELECT count(*) AS n FROM history', '--json', '-q'])).stdout) as [{ n: number }];
      expect(count[0].n).toBeGreaterThan(64); // more than one batch of rows
      const result = await lk(['sql', 'SELECT * FROM history', '--ndjson', '-q']);
      expect(result.code, result.stderr).toBe(0);
      expect(ndjsonLines(result.stdout)).toHaveLength(count[0].n);
      await until(() => queryProcessesOf(process.pid).length === 0);
    });

    it('a statement failing after rows were written: exit 2 with the query failed, and no query process left', async () => {
      // 5,000 rows, then SQLite fails on the last one: the first batches are written before the failure arrives.
      const failsLate =
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 5000) SELECT CASE WHEN x = 5000 THEN json('{bad') ELSE x END AS x FROM c";
      const result = await lk(['sql', failsLate, '--ndjson', '-q']);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^lk: the query failed: .*malformed JSON/);
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(ndjsonLines(result.stdout)[0]).toEqual({ x: 1 });
      await until(() => queryProcessesOf(process.pid).length === 0);
    });
  });
});
