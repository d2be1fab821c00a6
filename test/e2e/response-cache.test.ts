import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusedBeforeAnyRequest, startTestBed, virtualClock, type TestBed } from './harness.js';

const clock = virtualClock();
let bed: TestBed;

beforeAll(async () => {
  bed = await startTestBed({ entries: 30, clock });
});

afterAll(async () => {
  await bed.sandbox.close();
});

const responsesDir = () => join(bed.home.cacheDir, 'responses');

describe('--cache DURATION', () => {
  it('a second run within the duration is answered from the cache: the same output, no request', async () => {
    bed.sandbox.resetCounters();
    const first = await bed.lk(['library', '--json', '--cache', '5m']);
    expect(first.code).toBe(0);
    expect(bed.sandbox.counters.requests).toBe(1);
    const second = await bed.lk(['library', '--json', '--cache', '5m']);
    expect(second).toEqual(first);
    expect(bed.sandbox.counters.requests).toBe(1);
  });

  it('lk api too; --include shows the answer came from the cache', async () => {
    bed.sandbox.resetCounters();
    const first = await bed.lk(['api', '/v1/me', '--cache', '1h']);
    const second = await bed.lk(['api', '/v1/me', '--cache', '1h', '--include']);
    expect(second.stdout).toBe(first.stdout);
    expect(second.stderr).toMatch(/^x-lk-cache: hit$/m);
    expect(bed.sandbox.counters.requests).toBe(1);
  });

  it('older than the duration: asked again, and the expired entry is removed', async () => {
    await bed.lk(['stats', '--json', '--cache', '1m']);
    const before = readdirSync(responsesDir()).length;
    bed.sandbox.resetCounters();
    await clock.sleep(2 * 60_000);
    // Another URL's run sweeps the folder: the stats entry (1 minute) is gone, the 1-hour /v1/me entry stays.
    await bed.lk(['profile', '--json', '--cache', '1h']);
    expect(bed.sandbox.counters.requests).toBe(1);
    const after = readdirSync(responsesDir());
    expect(after.length).toBe(before); // one removed, one added
    await bed.lk(['stats', '--json', '--cache', '1m']);
    expect(bed.sandbox.counters.requests).toBe(2);
  });

  it('per URL and per key: other flags or another key ask the server', async () => {
    await bed.lk(['library', '--json', '--cache', '5m']);
    bed.sandbox.resetCounters();
    await bed.lk(['library', '--json', '--cache', '5m', '--phase', 'DONE']);
    expect(bed.sandbox.counters.requests).toBe(1);
    // A key without library:read must not see the cached library: it gets its own 403.
    const other = await bed.lk(['library', '--json', '--cache', '5m'], { key: 'calendar' });
    expect(other.code).toBe(4);
  });

  it('without --cache nothing is read from or written to it', async () => {
    bed.sandbox.resetCounters();
    await bed.lk(['library', '--json']);
    await bed.lk(['library', '--json']);
    expect(bed.sandbox.counters.requests).toBe(2);
  });

  it('files are 0600 in a 0700 folder, and never hold the key', async () => {
    const key = bed.env().LK_API_KEY!;
    expect(statSync(responsesDir()).mode & 0o777).toBe(0o700);
    for (const name of readdirSync(responsesDir())) {
      const path = join(responsesDir(), name);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(name).not.toContain(key.slice(3, 20));
      const text = readFileSync(path, 'utf8');
      expect(text).not.toContain(key);
      expect(text).not.toContain(key.slice(3, 20));
    }
  });

  it('a bad duration exits 2 before any request; lk export refuses it (it has its own cache)', async () => {
    await expectRefusedBeforeAnyRequest(bed, ['library', '--cache', 'soon']);
    await expectRefusedBeforeAnyRequest(bed, ['library', '--cache', '0s']);
    await expectRefusedBeforeAnyRequest(bed, ['export', '--cache', '1h']);
  });
});
