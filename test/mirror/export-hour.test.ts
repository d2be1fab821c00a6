import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestBed, type RunResult, type TestBed } from '../e2e/harness.js';
import { tempDir } from '../support/temp-dir.js';
import { until } from '../support/until.js';
import { describeWithSqlite, describeWithoutSqlite } from '../support/sqlite-node.js';

// Issue 44: when another client spent the export hour, the 429's Retry-After is remembered in the cache folder, so
// that no lk asks again before it passes: syncs read the endpoints meanwhile and say when the export is possible.

describeWithSqlite('the export hour spent elsewhere', () => {
  let bed: TestBed;
  let dataDir: string;
  const env = () => ({ LK_DATA_DIR: dataDir, LK_CACHE_DIR: join(dataDir, 'cache') });

  beforeAll(async () => {
    bed = await startTestBed({ entries: 40, rateLimit: 0, exportIntervalSeconds: 3600 });
    dataDir = tempDir('lk-export-hour-');
  });
  afterAll(async () => {
    await bed.sandbox.close();
  });

  it('two syncs, lk export and a serve --sync-every run ask for the export once in all', async () => {
    // Another client of the same account (a second key) takes the hour's export.
    const elsewhere = await fetch(new URL('/v1/export', bed.sandbox.url), { headers: { authorization: `Bearer ${bed.sandbox.key('other')}` } });
    expect(elsewhere.status).toBe(200);
    await elsewhere.text();
    bed.sandbox.resetCounters();
    const db = join(dataDir, 'mirror.db');
    const exports = () => bed.sandbox.counters.byPath['/v1/export'] ?? 0;

    const first = await bed.lk(['sync', '--db', db], { env: env() });
    expect(first.code, first.stderr).toBe(0);
    expect(exports()).toBe(1); // refused: 429 with Retry-After
    // The same moment both times (its "(in …)" counts down).
    const possible =
      /^lk: a new export is possible after ((?:\d{4}-\d\d-\d\d )?\d\d:\d\d:\d\d) \(in [^)]+\); reading the paginated endpoints meanwhile$/m;
    expect(first.stderr).toMatch(possible);

    const second = await bed.lk(['sync', '--db', db], { env: env() });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(possible);
    expect(second.stderr.match(possible)![1]).toBe(first.stderr.match(possible)![1]);
    // The mirror holds the first sync: within the refused hour the second reads only what changed (quick-sync.test.ts),
    // and, nothing having changed, says nothing may be waiting for the next export.
    expect(second.stderr).toMatch(/ from what changed since the last sync in /);
    expect(second.stderr).not.toMatch(/waiting for the next export/);
    expect(exports()).toBe(1);

    // lk export honours it too: exit 5 naming the time, without a request.
    const exported = await bed.lk(['export', '-o', join(dataDir, 'backup.json')], { env: env() });
    expect(exported.code).toBe(5);
    expect(exported.stderr).toMatch(
      /^lk: the server refused a new export \(api\.rate_limited\); try again after (\d{4}-\d\d-\d\d )?\d\d:\d\d:\d\d \(in (59m|1h)/,
    );
    expect(exports()).toBe(1);

    const abort = new AbortController();
    let ended: RunResult | undefined;
    const serving = bed
      .lk(['serve', '--port', '0', '--db', db, '--sync-every', '1s'], { env: env(), signal: abort.signal })
      .then((result) => (ended = result));
    try {
      const turns = () => bed.sandbox.counters.byPath['/v1/library'] ?? 0;
      const before = turns();
      await until(() => turns() >= before + 3 || ended !== undefined);
      expect(ended).toBeUndefined();
    } finally {
      abort.abort();
      await serving;
    }
    expect(ended!.code, ended!.stderr).toBe(0);
    expect(exports()).toBe(1);
  });
});

// Without node:sqlite there is no sync, but lk export keeps the refusal all the same.
describeWithoutSqlite(`on Node ${process.versions.node} (no node:sqlite)`, () => {
  it(`on Node ${process.versions.node} (no node:sqlite): the export hour spent elsewhere, two lk export runs ask once`, async () => {
    const bed = await startTestBed({ entries: 5, rateLimit: 0, exportIntervalSeconds: 3600 });
    try {
      const elsewhere = await fetch(new URL('/v1/export', bed.sandbox.url), { headers: { authorization: `Bearer ${bed.sandbox.key('other')}` } });
      expect(elsewhere.status).toBe(200);
      await elsewhere.text();
      bed.sandbox.resetCounters();
      const env = { LK_CACHE_DIR: tempDir('lk-export-hour-cache-') };
      const refused = /^lk: the server refused a new export \(api\.rate_limited\); try again after ((?:\d{4}-\d\d-\d\d )?\d\d:\d\d:\d\d)/;
      const first = await bed.lk(['export'], { env });
      const second = await bed.lk(['export'], { env });
      for (const run of [first, second]) {
        expect(run.code).toBe(5);
        expect(run.stdout).toBe('');
      }
      expect(second.stderr.match(refused)![1]).toBe(first.stderr.match(refused)![1]);
      expect(bed.sandbox.counters.byPath['/v1/export']).toBe(1);
    } finally {
      await bed.sandbox.close();
    }
  });
});
