import { existsSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestBed, type RunResult, type TestBed } from '../e2e/harness.js';
import { tempDir } from '../support/temp-dir.js';
import { runOnOldNode } from '../support/old-node.js';
import { until } from '../support/until.js';
import { describeWithSqlite, describeWithoutSqlite } from '../support/sqlite-node.js';

// Issue 45: one mirror, one account (a key of another account is refused, naming both, unless --replace), and a
// polite lk serve --sync-every (never closer than the account's budget allows, said once).

describeWithSqlite('lk sync and lk serve --sync-every: guards', () => {
  let bed: TestBed;
  let dataDir: string;
  const env = () => ({ LK_DATA_DIR: dataDir, LK_CACHE_DIR: join(dataDir, 'cache') });
  /** The mirror's bytes, its WAL's too: what "nothing written" means (an empty WAL is SQLite opening it to read). */
  const fingerprint = (db: string) =>
    ['', '-wal']
      .map((suffix) => (existsSync(db + suffix) ? readFileSync(db + suffix) : Buffer.alloc(0)))
      .map((bytes) => (bytes.length === 0 ? '-' : createHash('sha256').update(bytes).digest('hex')))
      .join();

  beforeAll(async () => {
    bed = await startTestBed({ entries: 40, rateLimit: 60 });
    dataDir = tempDir('lk-sync-guards-');
  });
  afterAll(async () => {
    await bed.sandbox.close();
  });

  /**
   * lk serve in this process until stop(); undefined when it ended before listening. Its --sync-every turns pass on
   * the bed's virtual clock, so `libraryReadsWhen` tells how many library reads the sandbox had answered at the moment
   * a line matching `said` was written to stderr.
   */
  async function serve(
    args: string[],
    key: string,
  ): Promise<{ url?: string; stop(): Promise<RunResult>; stderr(): string; libraryReadsWhen(said: RegExp): number | undefined }> {
    const abort = new AbortController();
    let stdout = '';
    let stderr = '';
    const written: { stderr: string; libraryReads: number }[] = [];
    let ended: RunResult | undefined;
    const run = bed
      .lk(['serve', '--port', '0', ...args], {
        key,
        env: env(),
        signal: abort.signal,
        onStdout: (text) => (stdout = text),
        onStderr: (text) => {
          stderr = text;
          written.push({ stderr: text, libraryReads: bed.sandbox.counters.byPath['/v1/library'] ?? 0 });
        },
      })
      .then((result) => (ended = result));
    await until(() => stdout.includes('\n') || ended !== undefined);
    return {
      ...(ended ? {} : { url: stdout.split('\n')[0]! }),
      stop: () => (abort.abort(), run),
      stderr: () => stderr,
      libraryReadsWhen: (said) => written.find((write) => said.test(write.stderr))?.libraryReads,
    };
  }

  it('a key of another account: refused naming both, nothing written; --replace replaces', async () => {
    const db = join(dataDir, 'demo.db');
    const first = await bed.lk(['sync', '--db', db], { key: 'full', env: env() });
    expect(first.code, first.stderr).toBe(0);
    const before = fingerprint(db);
    bed.sandbox.resetCounters();

    const other = await bed.lk(['sync', '--db', db], { key: 'nogames', env: env() });
    expect(other.code).toBe(1);
    expect(other.stderr).toBe(
      `lk: the mirror ${db} holds demo's data and this key is reader's: nothing was written\n` +
        "Use --db FILE for a mirror of reader, or --replace to replace demo's mirror with reader's.\n",
    );
    expect(fingerprint(db)).toBe(before);
    expect(Object.keys(bed.sandbox.counters.byPath)).toEqual(['/v1/me']);

    const served = await serve(['--db', db, '--sync-every', '1h'], 'nogames');
    expect(served.url).toBeUndefined();
    const ended = await served.stop();
    expect(ended.code).toBe(1);
    expect(ended.stdout).toBe('');
    expect(ended.stderr.split('\n')[0]).toBe(`lk: the mirror ${db} holds demo's data and this key is reader's: nothing was written`);
    expect(fingerprint(db)).toBe(before);

    const replaced = await bed.lk(['sync', '--db', db, '--replace'], { key: 'nogames', env: env() });
    expect(replaced.code, replaced.stderr).toBe(0);
    const whose = await bed.lk(['sql', "SELECT value FROM mirror_meta WHERE key = 'account'", '--db', db, '--csv'], { key: null, env: env() });
    expect(whose.stdout).toBe('value\nreader\n');
  });

  it('--sync-every below what the budget allows is raised, said on stderr, from the sync’s requests', async () => {
    const db = join(dataDir, 'polite.db');
    const serving = await serve(['--db', db, '--sync-every', '1s'], 'full');
    try {
      expect(serving.url).toBeDefined();
      const raised =
        /^lk: serve: --sync-every 1s raised to (.+): a sync takes (\d+) requests and the account allows 60 a minute, shared by its clients; lk serve keeps to half of it$/m;
      await until(() => raised.test(serving.stderr()));
      const [, floor, requests] = raised.exec(serving.stderr())!;
      expect(Number(requests)).toBeGreaterThan(2);
      // The requests over 30 a minute (half the budget), in whole seconds: 12 requests → 24s.
      expect(floor).toBe(`${Number(requests) * 2}s`);
      expect(serving.stderr().match(/raised to/g)!.length).toBeLessThanOrEqual(2);
    } finally {
      expect((await serving.stop()).code).toBe(0);
    }

    // Started again on that mirror: its last sync's cost paces the turns from the start, before any sync runs.
    bed.sandbox.resetCounters();
    const again = await serve(['--db', db, '--sync-every', '1s'], 'full');
    try {
      expect(again.url).toBeDefined();
      const raisedAgain = /^lk: serve: --sync-every 1s raised to \d+s: a sync takes \d+ requests/m;
      expect(again.stderr()).toMatch(raisedAgain);
      expect(again.libraryReadsWhen(raisedAgain)).toBe(0);
    } finally {
      expect((await again.stop()).code).toBe(0);
    }
  });
});

describeWithoutSqlite(`on Node ${process.versions.node} (no node:sqlite)`, () => {
  it(`on Node ${process.versions.node} (no node:sqlite) lk sync says it needs Node 22.13, in one line, exit 1`, async () => {
    const result = await runOnOldNode(['sync']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toMatch(/^lk: lk sync needs Node 22\.13 or later/);
  });
});
