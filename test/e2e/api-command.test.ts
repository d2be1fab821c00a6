import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBed, type TestBed } from './harness.js';

let bed: TestBed;

beforeAll(async () => {
  bed = await startTestBed({ entries: 23, rateLimit: 0 });
});

afterAll(async () => {
  await bed.sandbox.close();
});

describe('lk api PATH', () => {
  it("prints the server's JSON as sent, ending with a newline", async () => {
    const raw = await bed.lk(['api', '/v1/me']);
    expect(raw.code).toBe(0);
    expect(raw.stdout.endsWith('\n')).toBe(true);
    const whoami = await bed.lk(['whoami', '--json']);
    const [viaApi, viaWhoami] = [JSON.parse(raw.stdout), JSON.parse(whoami.stdout)] as Array<{ account: unknown; key: unknown }>;
    expect(viaApi.account).toEqual(viaWhoami.account);
    expect(viaApi.key).toEqual(viaWhoami.key);
  });

  it('/v1/library -F limit=5 --paginate returns every entry of the account, once, as one array', async () => {
    bed.sandbox.resetCounters();
    const result = await bed.lk(['api', '/v1/library', '-F', 'limit=5', '--paginate']);
    expect(result.code).toBe(0);
    const ids = (JSON.parse(result.stdout) as Array<{ id: string }>).map((entry) => entry.id);
    expect([...ids].sort()).toEqual([...bed.sandbox.entryIds('demo')].sort());
    expect(ids).toHaveLength(23);
    expect(bed.sandbox.counters.byPath['/v1/library']).toBe(5);
  });

  it('a query string in PATH merges with -F', async () => {
    const raw = JSON.parse((await bed.lk(['api', '/v1/library?limit=4', '-F', 'page=2'])).stdout) as { items: Array<{ id: string }> };
    expect(raw.items.map((entry) => entry.id)).toEqual(bed.sandbox.entryIds('demo').slice(4, 8));
  });

  it('--include prints the status line and the rate-limit headers on stderr, not stdout', async () => {
    const result = await bed.lk(['api', '/v1/me', '--include']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^HTTP 200\n/);
    expect(result.stderr.toLowerCase()).toContain('x-ratelimit-limit: ');
    expect(() => JSON.parse(result.stdout) as unknown).not.toThrow();
  });

  it('a 404 exits 6, a missing scope 4', async () => {
    expect((await bed.lk(['api', '/v1/nothing-here'])).code).toBe(6);
    const forbidden = await bed.lk(['api', '/v1/lists'], { key: 'library' });
    expect(forbidden.code).toBe(4);
    expect(forbidden.stderr).toContain('lists:read');
  });

  it.each([
    '/etc/passwd',
    'https://elsewhere/v1/me',
    '//elsewhere/v1/me',
    '/v1/../../etc',
    '/v1/../x',
    '/v1/%2e%2e/x',
    '/v1/%2E%2E/x',
    '/v1/lists%2fx',
    '/v1\\..\\x',
    '/v1x',
    'v1/me',
  ])('refuses %j with exit 2 and sends nothing', async (path) => {
    bed.sandbox.resetCounters();
    const result = await bed.lk(['api', path]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^lk: refusing path/);
    expect(bed.sandbox.counters.requests).toBe(0);
  });

  it('refuses a malformed -F, and -F limit out of range with --paginate, before any request', async () => {
    bed.sandbox.resetCounters();
    expect((await bed.lk(['api', '/v1/library', '-F', 'limit'])).code).toBe(2);
    expect((await bed.lk(['api', '/v1/library', '-F', 'limit=500', '--paginate'])).code).toBe(2);
    expect(bed.sandbox.counters.requests).toBe(0);
  });
});
