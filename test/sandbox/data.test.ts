import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { call, clock, NOW } from './helpers.js';

describe('generated data', () => {
  it('same seed gives the same data and the same keys', async () => {
    const a = await startSandbox({ port: 0, rateLimit: 0, seed: 7, now: clock(NOW).now });
    const b = await startSandbox({ port: 0, rateLimit: 0, seed: 7, now: clock(NOW).now });
    try {
      expect(b.keys).toEqual(a.keys);
      expect(b.entryIds('demo')).toEqual(a.entryIds('demo'));
      for (const path of ['/v1/export', '/v1/calendar', '/v1/history?limit=100&page=3']) {
        expect((await call(b, path)).text).toBe((await call(a, path)).text);
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('another seed gives other data and other keys', async () => {
    const a = await startSandbox({ port: 0, seed: 1, now: clock(NOW).now });
    const b = await startSandbox({ port: 0, seed: 2, now: clock(NOW).now });
    try {
      expect(b.key('full')).not.toBe(a.key('full'));
      expect(b.entryIds('demo')).not.toEqual(a.entryIds('demo'));
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('entries sets the size of the demo account; reader stays small', async () => {
    const sandbox = await startSandbox({ port: 0, entries: 37, now: clock(NOW).now });
    try {
      expect(sandbox.entryIds('demo')).toHaveLength(37);
      expect(sandbox.entryIds('reader').length).toBeGreaterThanOrEqual(50);
      expect(sandbox.entryIds('reader').length).toBeLessThanOrEqual(70);
      expect(() => sandbox.entryIds('nobody')).toThrow();
    } finally {
      await sandbox.close();
    }
  });

  it('addEntries prepends new, newest entries', async () => {
    const time = clock(NOW);
    const sandbox = await startSandbox({ port: 0, rateLimit: 0, now: time.now });
    try {
      const before = sandbox.entryIds('demo');
      time.advance(1000);
      sandbox.addEntries('demo', 4);
      const after = sandbox.entryIds('demo');
      expect(after.slice(4)).toEqual(before);
      const first = (await call(sandbox, '/v1/library?limit=4')).body.items;
      expect(first.map((entry: any) => entry.id)).toEqual(after.slice(0, 4));
      expect(first.every((entry: any) => entry.phase === 'PLANNED' && Date.parse(entry.dates.added) >= NOW + 1000)).toBe(true);
      expect(new Set(after).size).toBe(after.length);
    } finally {
      await sandbox.close();
    }
  });

  // How fast they build and page is the bench's to measure, not a test's (a loaded machine is no failure).
  it('100,000 entries build and page', async () => {
    const sandbox = await startSandbox({ port: 0, rateLimit: 0, entries: 100_000, now: clock(NOW).now });
    try {
      expect(sandbox.entryIds('demo')).toHaveLength(100_000);
      const deep = await call(sandbox, '/v1/library?limit=100&page=1000');
      expect([deep.status, deep.body.items.length, deep.body.hasMore, deep.body.total]).toEqual([200, 100, false, 100_000]);
      for (let page = 500; page < 520; page += 1) expect((await call(sandbox, `/v1/library?limit=100&page=${page}`)).status).toBe(200);
      expect((await call(sandbox, '/v1/library?sort=title&phase=DONE&limit=100&page=50')).body.items).toHaveLength(100);
    } finally {
      await sandbox.close();
    }
  });
});
