import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBed, virtualClock, type TestBed } from './harness.js';
import { tempDir } from '../support/temp-dir.js';

// Issue 62: lk assumes docs/api.md's one export an hour for its cache, but the server's 429 and Retry-After are its
// word: `lk sandbox --export-interval 60` (or an instance that allows more) gives lk export --fresh a new export a
// minute after the last, and a refusal is remembered until its Retry-After, so that a second --fresh asks nothing.

describe('the export interval is the server’s: lk export --fresh against lk sandbox --export-interval 60', () => {
  const clock = virtualClock();
  let bed: TestBed;
  beforeAll(async () => {
    bed = await startTestBed({ entries: 20, rateLimit: 0, exportIntervalSeconds: 60, clock });
  });
  afterAll(async () => {
    await bed.sandbox.close();
  });

  const exportRequests = () => bed.sandbox.counters.byPath['/v1/export'] ?? 0;

  it('refused within the minute (exit 5, the time the server gave, asked once), a new export once it has passed', async () => {
    const dir = tempDir('lk-export-interval-');
    const env = { LK_CACHE_DIR: join(dir, 'cache') };
    const lkExport = (...args: string[]) => bed.lk(['export', ...args], { env });
    bed.sandbox.resetCounters();

    expect((await lkExport('-o', join(dir, 'first.json'))).code).toBe(0);
    expect(bed.sandbox.counters.exports).toBe(1);

    const refused = await lkExport('--fresh', '-o', join(dir, 'refused.json'));
    expect(refused.code).toBe(5);
    expect(refused.stderr).toMatch(
      /^lk: the server refused a new export \(api\.rate_limited\); try again after (\d{4}-\d\d-\d\d )?\d\d:\d\d:\d\d \(in (1m|\d+s)\)$/m,
    );
    expect(exportRequests()).toBe(2);
    // The refusal stands until its Retry-After: no second request for it.
    expect((await lkExport('--fresh', '-o', join(dir, 'refused.json'))).code).toBe(5);
    expect(exportRequests()).toBe(2);

    await clock.sleep(61_000);
    const fresh = await lkExport('--fresh', '-o', join(dir, 'fresh.json'));
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stderr).not.toMatch(/from the cache/);
    expect(bed.sandbox.counters.exports).toBe(2);
    // Without --fresh, the cache answers within lk's hour, as docs/api.md's rule has it.
    const cached = await lkExport('-o', join(dir, 'cached.json'));
    expect(cached.code).toBe(0);
    expect(cached.stderr).toMatch(/^lk: export from the cache, fetched /m);
    expect(bed.sandbox.counters.exports).toBe(2);
  });

  it('--fresh --max-wait waits out the Retry-After the server sent, then exports', async () => {
    const env = { LK_CACHE_DIR: join(tempDir('lk-export-interval-'), 'cache') };
    const output = join(tempDir('lk-export-interval-out-'), 'backup.json');
    await clock.sleep(61_000);
    expect((await bed.lk(['export', '-o', output], { env })).code).toBe(0);
    bed.sandbox.resetCounters();
    const before = clock.now();
    const waited = await bed.lk(['export', '--fresh', '--max-wait', '120', '-o', output], { env });
    expect(waited.code, waited.stderr).toBe(0);
    expect(bed.sandbox.counters.exports).toBe(1);
    expect(bed.sandbox.counters.rateLimited).toBe(1);
    expect(clock.now() - before).toBeGreaterThanOrEqual(59_000);
  });
});
