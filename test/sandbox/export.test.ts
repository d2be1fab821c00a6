import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { all, call, clock, NOW } from './helpers.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

describe('GET /v1/export', () => {
  it('returns everything at once: library, every history event (undated too), lists with items, reviews, achievements, notifications, profile', async () => {
    const time = clock(NOW);
    sandbox = await startSandbox({ port: 0, rateLimit: 0, now: time.now });
    const response = await call(sandbox, '/v1/export');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = response.body;
    expect(Object.keys(body)).toEqual([
      'exportedAt',
      'account',
      'library',
      'history',
      'lists',
      'reviews',
      'achievements',
      'notifications',
      'profile',
    ]);
    expect(body.exportedAt).toBe(new Date(NOW).toISOString());
    expect(body.account.username).toBe('demo');
    expect(body.library.map((entry: any) => entry.id)).toEqual(sandbox.entryIds('demo'));
    const dated = await all(sandbox, '/v1/history');
    const undated = body.history.filter((event: any) => event.date === null);
    expect(undated.length).toBeGreaterThan(0);
    expect(body.history.length).toBe(dated.length + undated.length);
    expect(body.history.slice(0, dated.length).map((event: any) => event.id)).toEqual(dated.map((event: any) => event.id));
    expect(body.lists.every((list: any) => Array.isArray(list.items) && list.items.length === list.itemCount)).toBe(true);
    expect(body.reviews.length).toBe((await call(sandbox, '/v1/reviews')).body.total);
    expect(body.profile.username).toBe('demo');
    expect(sandbox.counters.exports).toBe(1);
  });

  it('export twice within the interval gives 429 with Retry-After, and is allowed again after it', async () => {
    const time = clock(NOW);
    sandbox = await startSandbox({ port: 0, rateLimit: 0, now: time.now });
    expect((await call(sandbox, '/v1/export')).status).toBe(200);
    time.advance(600_000);
    const again = await call(sandbox, '/v1/export', { key: 'other' }); // the limit is per account, not per key
    expect(again.status).toBe(429);
    expect(again.body.code).toBe('api.rate_limited');
    expect(again.headers.get('retry-after')).toBe('3000');
    expect(sandbox.counters.exports).toBe(1);
    expect(sandbox.counters.rateLimited).toBe(1);
    expect((await call(sandbox, '/v1/export', { key: 'nogames' })).status).toBe(200); // another account
    time.advance(3_000_000);
    expect((await call(sandbox, '/v1/export')).status).toBe(200);
    expect(sandbox.counters.exports).toBe(3);
  });

  it('exportIntervalSeconds sets the interval', async () => {
    const time = clock(NOW);
    sandbox = await startSandbox({ port: 0, rateLimit: 0, exportIntervalSeconds: 5, now: time.now });
    expect((await call(sandbox, '/v1/export')).status).toBe(200);
    time.advance(2_500);
    expect((await call(sandbox, '/v1/export')).headers.get('retry-after')).toBe('3');
    time.advance(2_500);
    expect((await call(sandbox, '/v1/export')).status).toBe(200);
  });

  it('is streamed in chunks rather than sent with a Content-Length', async () => {
    const time = clock(NOW);
    sandbox = await startSandbox({ port: 0, rateLimit: 0, now: time.now });
    const response = await fetch(`${sandbox.url}/v1/export`, { headers: { authorization: `Bearer ${sandbox.key('full')}` } });
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    expect(response.headers.get('content-length')).toBeNull();
    await response.json();
  });
});
