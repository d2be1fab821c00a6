import { createServer, type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runLkInProcess, startTestBed, tempHome, virtualClock, type RunResult, type TestBed } from './harness.js';
import { json, listing, ME, startHostileServer, type HostileServer, type Mode } from './hostile-server.js';
import { makeTestPki, type TestPki } from './pki.js';
import { describeWith } from '../support/outside-tools.js';

/**
 * Issue 36: a request goes over node:http/node:https, or over undici (behind a proxy, or with LK_TRANSPORT=undici).
 * Every scenario here runs over both and must come out the same, byte for byte (the milliseconds of -v aside), besides
 * meeting its own expectation: the route changes nothing a user can see.
 */

const KEY = `lk_${'Kx7Qm2Vb9Tn4Rw6Yp1Zs3Lc5Hd8Jf0Gu2Ne4Ma6Pb8Qc1Rd3Se5Tf7'.slice(0, 49)}`;
const TRANSPORTS = [{ LK_TRANSPORT: undefined }, { LK_TRANSPORT: 'undici' }];
const servers: HostileServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/**
 * The "waiting Ns before retrying" lines are left
 * out of the comparison: which of them are shown (a repeat of the same kind within 30 s is dropped, a wait covered by
 * another one too) depends on the random backoff and on timing, not on the transport — each run still has to show one.
 */
function comparable(result: RunResult): RunResult {
  return { ...result, stderr: result.stderr.replace(/^lk: waiting \d+s before retrying: .*\n/gm, '') };
}

/** -v's milliseconds as N. */
function withoutTimes(result: RunResult): RunResult {
  return { ...result, stderr: result.stderr.replace(/\b\d+ ms\b/g, 'N ms') };
}

/** Runs lk over each transport against a fresh server (made by `serve`); both results, checked to be the same. */
async function overBoth(serve: () => Mode | Record<string, Mode>, args: string[], baseUrl?: string): Promise<RunResult> {
  const results: RunResult[] = [];
  const raw: RunResult[] = [];
  for (const transport of TRANSPORTS) {
    const routes = serve();
    const server = await startHostileServer(typeof routes === 'function' ? { '/v1/me': routes } : routes);
    servers.push(server);
    const home = tempHome();
    const clock = virtualClock();
    const env = { LK_BASE_URL: baseUrl ?? server.url, LK_API_KEY: KEY, LK_CONFIG_DIR: home.configDir, LK_CACHE_DIR: home.cacheDir, ...transport };
    const result = await runLkInProcess(args, { env, now: clock.now, sleep: clock.sleep });
    raw.push(withoutTimes(result));
    results.push(comparable(withoutTimes(result)));
  }
  expect(results[1]).toEqual(results[0]);
  return raw[0]!;
}

/** Answers with `modes` in turn, the last one from then on. */
function inTurn(...modes: Mode[]): Mode {
  let count = 0;
  return (req, res, url, server) => modes[Math.min(count++, modes.length - 1)]!(req, res, url, server);
}

const ok = json(ME, 200, { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '41', 'x-ratelimit-reset': '30' });
const reset: Mode = (req) => req.socket.destroy();
const cutShort: Mode = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
  res.write('{"account":{');
  setTimeout(() => res.socket?.destroy(), 20);
};

describe('one request, the same over node:http and over undici', () => {
  it('a 500, a reset and a 503 with Retry-After are retried, and -v tells each exchange and wait alike', async () => {
    const result = await overBoth(
      () => inTurn(json({ code: 'boom' }, 500), reset, json({ code: 'busy' }, 503, { 'retry-after': '1' }), ok),
      ['whoami', '--json', '-v'],
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(ME);
    expect(result.stderr).toMatch(/GET \/v1\/me → 500 in N ms/);
    expect(result.stderr).toMatch(/GET \/v1\/me → 503 in N ms/);
    expect(result.stderr).toMatch(/^lk: waiting \d+s before retrying: /m);
    expect(result.stderr).toMatch(/GET \/v1\/me → 200 in N ms · 41\/60 left/);
  });

  it('a 429 with Retry-After is waited out, then answered', async () => {
    const result = await overBoth(() => inTurn(json({ code: 'api.rate_limited' }, 429, { 'retry-after': '3' }), ok), ['whoami', '--json', '-v']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('for the rate limit: the server answered 429 (Retry-After 3s)');
  });

  it('a body cut short is retried, then named as such', async () => {
    const result = await overBoth(() => cutShort, ['whoami', '--json']);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n').at(-1)).toBe('lk: GET /v1/me failed: the response was cut short (tried 4 times)');
  });

  it('a redirect to https is not followed: exit 1, and the base URL that would work', async () => {
    const result = await overBoth(
      () => (_req, res) => {
        res.writeHead(301, { location: 'https://127.0.0.1:1/v1/me' });
        res.end();
      },
      ['whoami'],
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('lk does not follow redirects with the key');
    expect(result.stderr).toContain('--base-url https://127.0.0.1:1');
  });

  it('a refused key, a page that is not JSON and a compressed body read the same', async () => {
    expect((await overBoth(() => json({ code: 'auth.invalid_key', message: 'no such key' }, 401), ['whoami'])).code).toBe(3);
    const html: Mode = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html></html>');
    };
    expect((await overBoth(() => html, ['whoami'])).stderr).toContain('is not JSON (text/html)');
    const gzip = json(ME, 200, { 'content-encoding': 'gzip' });
    expect((await overBoth(() => gzip, ['whoami'])).stderr).toContain('is compressed (gzip)');
  });

  it('a listing followed to the end with 4 pages in flight hands over every item once, in order', async () => {
    const result = await overBoth(() => ({ '/v1/library': listing(950) }), ['library', '--all', '--ndjson']);
    expect(result.code).toBe(0);
    const ids = result.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: string }).id);
    expect(ids).toEqual(Array.from({ length: 950 }, (_, i) => `e${i}`));
  });

  it('nothing listening: connection refused, not retried', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const result = await overBoth(() => ok, ['whoami'], `http://127.0.0.1:${port}`);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`cannot connect to 127.0.0.1:${port}: connection refused`);
  });
});

describeWith(['openssl'], 'https, the same over node:https and over undici', () => {
  let pki: TestPki;
  const beds: TestBed[] = [];
  beforeAll(() => {
    pki = makeTestPki();
  });
  afterAll(async () => {
    await Promise.all(beds.map((bed) => bed.sandbox.close()));
  });

  /** The same exit and stderr; the account the same (the budget left differs: the first run spent some). */
  async function overBothTls(tls: { key: string; cert: string }, args: string[]): Promise<RunResult> {
    const bed = await startTestBed({ tls });
    beds.push(bed);
    const [node, undici] = [await bed.lk(args), await bed.lk(args, { env: { LK_TRANSPORT: 'undici' } })];
    expect([undici.code, undici.stderr]).toEqual([node.code, node.stderr]);
    if (node.code === 0) expect((JSON.parse(undici.stdout) as typeof ME).account).toEqual((JSON.parse(node.stdout) as typeof ME).account);
    return node;
  }

  it('--cacert trusts the CA on both', async () => {
    const result = await overBothTls(pki.valid, ['whoami', '--json', '--cacert', pki.caFile]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveProperty('account');
  });

  it('an unknown authority, an expired certificate and a wrong name fail alike', async () => {
    expect((await overBothTls(pki.valid, ['whoami'])).stderr).toContain('signed by an authority this machine does not trust');
    expect((await overBothTls(pki.expired, ['whoami', '--cacert', pki.caFile])).stderr).toContain('its certificate has expired');
    expect((await overBothTls(pki.wrongName, ['whoami', '--cacert', pki.caFile])).stderr).toContain('its certificate is for');
  });

  it('plain http to the TLS port: the advice to use https', async () => {
    const bed = await startTestBed({ tls: pki.valid });
    beds.push(bed);
    const plain = bed.sandbox.url.replace('https:', 'http:');
    const [node, undici] = [
      await bed.lk(['whoami'], { env: { LK_BASE_URL: plain } }),
      await bed.lk(['whoami'], { env: { LK_BASE_URL: plain, LK_TRANSPORT: 'undici' } }),
    ];
    // Which retry waits are said, and their seconds, depend on their jitter (comparable, above): each run says one.
    for (const run of [node, undici]) {
      expect(run.stderr).toMatch(/^lk: waiting \d+s before retrying: GET \/v1\/me failed: the connection was reset \(try \d of 4\)$/m);
    }
    expect(comparable(undici)).toEqual(comparable(node));
    expect(node.code).toBe(1);
    expect(node.stderr).toContain('use --base-url https://');
  });
});
