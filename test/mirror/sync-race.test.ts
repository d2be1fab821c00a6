import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestBed, type RunResult, type TestBed } from '../e2e/harness.js';
import { tempDir } from '../support/temp-dir.js';
import { describeWithSqlite } from '../support/sqlite-node.js';

// Issue 57: two lk sync at once on one mirror (the README's cron line beside lk serve --sync-every) failed 1–2 times
// in 6 with "unexpected error: disk I/O error" or "the mirror is locked by another program". The second waits its
// turn: both end 0, whichever started first. Real processes, as cron starts them: the lock is between processes.
// Four at once in four rounds: six pairs race in each round, 24 pairs from 16 processes, where twelve rounds of two
// raced 12 pairs from 24.

describeWithSqlite('lk sync started several at once on one mirror', () => {
  let bed: TestBed;
  let dataDir: string;
  const ROUNDS = 4;
  const AT_ONCE = 4;

  beforeAll(async () => {
    bed = await startTestBed({ entries: 40, rateLimit: 0, exportIntervalSeconds: 0, clock: null });
    dataDir = tempDir('lk-sync-race-');
  });
  afterAll(async () => {
    await bed.sandbox.close();
  });

  const sync = (db: string): Promise<RunResult> =>
    bed.lkProcess(['sync', '--db', db], { key: 'full', env: { LK_DATA_DIR: dataDir, LK_CACHE_DIR: join(dataDir, 'cache') } });

  /** Each ended 0 with its "synced" line, no error among what they said. */
  function expectAllSynced(racers: RunResult[], round: number): void {
    expect(racers).toHaveLength(AT_ONCE);
    for (const result of racers) {
      expect(result.code, `round ${round}: ${result.stderr}`).toBe(0);
      expect(result.stderr).not.toMatch(/unexpected|error|disk I\/O|locked by another program/);
      expect(result.stderr).toMatch(/^lk: synced /m);
    }
  }

  const race = (db: string) => Promise.all(Array.from({ length: AT_ONCE }, () => sync(db)));

  it(`on a mirror that exists: all end 0, ${ROUNDS} rounds of ${AT_ONCE} processes started at once`, async () => {
    const db = join(dataDir, 'kept.db');
    expect((await sync(db)).code).toBe(0);
    for (let round = 1; round <= ROUNDS; round += 1) {
      bed.sandbox.addEntries('demo', 1);
      expectAllSynced(await race(db), round);
    }
    const count = await bed.lk(['sql', 'SELECT count(*) AS n FROM entries', '--db', db, '--csv'], { key: null, env: { LK_DATA_DIR: dataDir } });
    expect(count.stdout).toBe(`n\n${bed.sandbox.entryIds('demo').length}\n`);
  }, 120_000);

  it(`on no mirror yet: all end 0 and the mirror is whole, ${ROUNDS} rounds of ${AT_ONCE}`, async () => {
    for (let round = 1; round <= ROUNDS; round += 1) {
      const db = join(dataDir, `new-${round}.db`);
      expectAllSynced(await race(db), round);
      const count = await bed.lk(['sql', 'SELECT count(*) AS n FROM entries', '--db', db, '--csv'], { key: null, env: { LK_DATA_DIR: dataDir } });
      expect(count.stdout, `round ${round}`).toBe(`n\n${bed.sandbox.entryIds('demo').length}\n`);
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${db}${suffix}`, { force: true });
    }
  }, 120_000);
});
