import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call, clock } from './helpers.js';

/** 12:00:15 UTC: 45 seconds left in the minute. */
const START = Date.UTC(2026, 2, 15, 12, 0, 15);
let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const budget = (headers: Headers) => ({
  limit: Number(headers.get('x-ratelimit-limit')),
  remaining: Number(headers.get('x-ratelimit-remaining')),
  reset: Number(headers.get('x-ratelimit-reset')),
});

describe('rate limit', () => {
  it('every response carries X-RateLimit-Limit, -Remaining and -Reset, errors included', async () => {
    const time = clock(START);
    sandbox = await startSandbox({ port: 0, rateLimit: 10, now: time.now });
    for (const [path, key] of [
      ['/v1/me', 'full'],
      ['/v1/nope', 'full'],
      ['/v1/me', null],
      ['/v1/library?limit=0', 'full'],
      ['/v1/library', 'calendar'],
    ] as const) {
      const response = await call(sandbox, path, { key });
      expect(response.headers.get('x-ratelimit-limit')).toBe('10');
      expect(response.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
      expect(response.headers.get('x-ratelimit-reset')).toBe('45');
    }
  });

  it('Remaining counts down and Reset is the whole seconds left in the minute (rounded up)', async () => {
    const time = clock(START);
    sandbox = await startSandbox({ port: 0, rateLimit: 5, now: time.now });
    expect(budget((await call(sandbox, '/v1/me')).headers)).toEqual({ limit: 5, remaining: 4, reset: 45 });
    time.advance(500);
    expect(budget((await call(sandbox, '/v1/me')).headers)).toEqual({ limit: 5, remaining: 3, reset: 45 });
    const me = await call(sandbox, '/v1/me');
    expect(me.body.rateLimit).toEqual({ limit: 5, remaining: 2, reset: 45 });
  });

  it("the budget is shared by all the account's keys and beyond it comes 429 api.rate_limited with Retry-After", async () => {
    const time = clock(START);
    sandbox = await startSandbox({ port: 0, rateLimit: 4, now: time.now });
    for (const key of ['full', 'other', 'library', 'full']) expect((await call(sandbox, '/v1/me', { key })).status).toBe(200);
    const refused = await call(sandbox, '/v1/me', { key: 'other' });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('api.rate_limited');
    expect(refused.headers.get('retry-after')).toBe('45');
    expect(budget(refused.headers)).toEqual({ limit: 4, remaining: 0, reset: 45 });
    expect(sandbox.counters.rateLimited).toBe(1);
    // Another account has its own budget.
    expect((await call(sandbox, '/v1/me', { key: 'nogames' })).status).toBe(200);
  });

  it('the budget starts over with the next minute', async () => {
    const time = clock(START);
    sandbox = await startSandbox({ port: 0, rateLimit: 1, now: time.now });
    expect((await call(sandbox, '/v1/me')).status).toBe(200);
    expect((await call(sandbox, '/v1/me')).status).toBe(429);
    time.advance(45_000);
    const fresh = await call(sandbox, '/v1/me');
    expect(fresh.status).toBe(200);
    expect(budget(fresh.headers)).toEqual({ limit: 1, remaining: 0, reset: 60 });
  });

  it('requests without a valid key draw from an anonymous bucket of their address, not the account', async () => {
    const time = clock(START);
    sandbox = await startSandbox({ port: 0, rateLimit: 2, now: time.now });
    expect((await call(sandbox, '/v1/me', { key: null })).status).toBe(401);
    expect((await call(sandbox, '/v1/me', { key: 'revoked' })).status).toBe(401);
    expect((await call(sandbox, '/v1/me', { key: null })).status).toBe(429);
    expect((await call(sandbox, '/v1/me')).status).toBe(200);
  });

  it('rateLimit 0 lifts the limit but still sends the headers', async () => {
    const time = clock(START);
    sandbox = await startSandbox({ port: 0, rateLimit: 0, now: time.now });
    for (let n = 0; n < 80; n += 1) expect((await call(sandbox, '/v1/me')).status).toBe(200);
    const response = await call(sandbox, '/v1/me');
    expect(Number(response.headers.get('x-ratelimit-limit'))).toBeGreaterThan(1_000_000);
    expect(Number(response.headers.get('x-ratelimit-remaining'))).toBeGreaterThan(1_000_000);
    expect(response.headers.get('x-ratelimit-reset')).toBe('45');
  });

  it('the default is 60 requests per minute', async () => {
    const time = clock(START);
    sandbox = await startSandbox({ port: 0, now: time.now });
    expect(budget((await call(sandbox, '/v1/me')).headers).limit).toBe(60);
  });
});
