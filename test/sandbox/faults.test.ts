import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { call, clock, NOW } from './helpers.js';
import { until } from '../support/until.js';

let sandbox: Sandbox;
const time = clock(NOW);

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: 0, now: time.now });
});
afterAll(() => sandbox.close());

/** Outcome of a request as a short word: the status, "reset" or "truncated". */
async function outcome(path = '/v1/me'): Promise<string> {
  try {
    const response = await fetch(sandbox.url + path, { headers: { authorization: `Bearer ${sandbox.key('full')}` } });
    try {
      await response.text();
    } catch {
      return 'truncated';
    }
    return String(response.status);
  } catch {
    return 'reset';
  }
}

describe('faults', () => {
  it('rate429 answers 429 api.rate_limited with Retry-After retryAfter429, counted in rateLimited', async () => {
    sandbox.faults = { rate429: 1, retryAfter429: 7 };
    sandbox.resetCounters();
    const response = await call(sandbox, '/v1/me');
    expect([response.status, response.body.code, response.headers.get('retry-after')]).toEqual([429, 'api.rate_limited', '7']);
    expect(response.headers.get('x-ratelimit-limit')).not.toBeNull();
    expect(sandbox.counters.rateLimited).toBe(1);
    expect(sandbox.counters.byStatus).toEqual({ '429': 1 });
  });

  it('rate500 answers 500 and rate503 answers 503 with Retry-After: 1, both with a JSON error body', async () => {
    sandbox.faults = { rate500: 1 };
    const failed = await call(sandbox, '/v1/me');
    expect([failed.status, failed.body.code]).toEqual([500, 'server.internal_error']);
    sandbox.faults = { rate503: 1 };
    const unavailable = await call(sandbox, '/v1/me');
    expect([unavailable.status, unavailable.body.code, unavailable.headers.get('retry-after')]).toEqual([503, 'server.unavailable', '1']);
  });

  it('rateReset destroys the connection before any response', async () => {
    sandbox.faults = { rateReset: 1 };
    sandbox.resetCounters();
    expect(await outcome()).toBe('reset');
    expect(sandbox.counters.requests).toBe(1);
    expect(sandbox.counters.byStatus).toEqual({});
  });

  it('rateTruncate sends the headers with the full Content-Length, then cuts the body mid-way', async () => {
    sandbox.faults = { rateTruncate: 1 };
    const result = await new Promise<{ status: number; length: number; received: number; aborted: boolean }>((resolve, reject) => {
      const req = httpRequest(`${sandbox.url}/v1/library`, { headers: { authorization: `Bearer ${sandbox.key('full')}` } }, (res) => {
        let received = 0;
        let aborted = false;
        res.on('data', (chunk: Buffer) => (received += chunk.length));
        res.on('aborted', () => (aborted = true));
        res.on('error', () => (aborted = true));
        res.on('close', () => resolve({ status: res.statusCode!, length: Number(res.headers['content-length']), received, aborted }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(result.status).toBe(200);
    expect(result.received).toBeGreaterThan(0);
    expect(result.received).toBeLessThan(result.length);
    expect(result.aborted).toBe(true);
    expect(await outcome('/v1/library')).toBe('truncated');
  });

  it('latencyMs delays every response', async () => {
    // The sandbox's own timers are faked: the answer waits for the clock, not for the machine.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    onTestFinished(() => void vi.useRealTimers());
    sandbox.faults = { latencyMs: 150 };
    const asked = sandbox.counters.requests;
    const answered = () => sandbox.counters.byStatus['200'] ?? 0;
    const answeredBefore = answered();
    const answer = outcome();
    await until(() => sandbox.counters.requests > asked);
    await vi.advanceTimersByTimeAsync(149);
    expect(answered()).toBe(answeredBefore);
    await vi.advanceTimersByTimeAsync(1);
    expect(answered()).toBe(answeredBefore + 1);
    expect(await answer).toBe('200');
  });

  it('a stall outlasts the client timeout without blocking other requests', async () => {
    sandbox.faults = { rateStall: 1, stallMs: 10 * 60_000, paths: ['/v1/calendar'] };
    const clientTimeout = new AbortController();
    let settled = false;
    const stalled = fetch(`${sandbox.url}/v1/calendar`, {
      headers: { authorization: `Bearer ${sandbox.key('full')}` },
      signal: clientTimeout.signal,
    }).finally(() => (settled = true));
    await until(() => (sandbox.counters.byPath['/v1/calendar'] ?? 0) > 0);
    // Another request is answered while the stalled one is still held.
    expect((await call(sandbox, '/v1/me')).status).toBe(200);
    expect(settled).toBe(false);
    // The client gives up first: the stall outlasts it.
    clientTimeout.abort();
    await expect(stalled).rejects.toThrow();
  });

  it('htmlBody answers 200 text/html with a login page', async () => {
    sandbox.faults = { htmlBody: true };
    const response = await call(sandbox, '/v1/library');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.text).toMatch(/<form/);
  });

  it('paths limits faults to requests whose path starts with one of them', async () => {
    sandbox.faults = { rate500: 1, paths: ['/v1/library'] };
    expect(await outcome('/v1/me')).toBe('200');
    expect(await outcome('/v1/library/x')).toBe('500');
    expect(await outcome('/v1/library')).toBe('500');
  });

  it('the n-th request gets the same fate for the same fault seed, and another seed gives other fates', async () => {
    const run = async (seed: number) => {
      sandbox.faults = { seed, rate500: 0.3, rate503: 0.2 };
      const outcomes: string[] = [];
      for (let n = 0; n < 30; n += 1) outcomes.push(await outcome());
      return outcomes.join(' ');
    };
    const first = await run(5);
    expect(await run(5)).toBe(first);
    expect(first).toMatch(/500/);
    expect(first).toMatch(/503/);
    expect(first).toMatch(/200/);
    expect(await run(6)).not.toBe(first);
  });

  it('addEntriesPerRequest adds newest entries before each /v1/library answer', async () => {
    sandbox.faults = { addEntriesPerRequest: 3 };
    const before = sandbox.entryIds('demo').length;
    const page1 = (await call(sandbox, '/v1/library?limit=5')).body;
    expect(page1.total).toBe(before + 3);
    const page2 = (await call(sandbox, '/v1/library?limit=5&page=2')).body;
    expect(page2.total).toBe(before + 6);
    // The three added before page 2 pushed page 1's last items into page 2.
    expect(page2.items.slice(0, 3).map((entry: any) => entry.id)).toEqual(page1.items.slice(2).map((entry: any) => entry.id));
    expect(page1.items[0].phase).toBe('PLANNED');
    sandbox.faults = {};
  });

  it('close() ends promptly with a stalled request and keep-alive connections open', async () => {
    const other = await startSandbox({ port: 0, rateLimit: 0, faults: { rateStall: 1, stallMs: 60_000, paths: ['/v1/calendar'] } });
    await fetch(`${other.url}/v1/me`, { headers: { authorization: `Bearer ${other.key('full')}` } }).then((r) => r.text());
    const stalled = fetch(`${other.url}/v1/calendar`, { headers: { authorization: `Bearer ${other.key('full')}` } }).catch(() => 'failed');
    await until(() => (other.counters.byPath['/v1/calendar'] ?? 0) > 0);
    // close() resolves at all: the 60 s stall outlasts the test's timeout, so it was not waited for.
    await other.close();
    expect(await stalled).toBe('failed');
  });
});
