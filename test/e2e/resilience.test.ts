import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { faultFate, type FaultOptions } from '../../src/sandbox/faults.js';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import { envelope, sendJson, startFakeApi, type FakeApi } from './fake-api.js';
import { lkSpawnArgs, ndjsonLines, startTestBed, tempHome, virtualClock, type TestBed, type VirtualClock } from './harness.js';

/**
 * The client against a server that fails and a budget that runs out. Waits are kept short: injected 429s ask for 1 s,
 * --timeout is 1 s, and the sandbox's clock is shifted so that a minute's window ends when the test needs it to.
 */

const beds: TestBed[] = [];
const fakes: FakeApi[] = [];

afterEach(async () => {
  await Promise.all([...beds.splice(0).map((bed) => bed.sandbox.close()), ...fakes.splice(0).map((fake) => fake.close())]);
});

async function bed(options: SandboxOptions & { clock?: VirtualClock }): Promise<TestBed> {
  // Waits pass on a virtual clock shared with the sandbox: a minute's window is over in no time.
  const started = await startTestBed({ clock: virtualClock(), ...options });
  beds.push(started);
  return started;
}

/** A clock on which a rate-limit window (aligned on the minute) ends `seconds` from now. */
function windowEndingIn(seconds: number): VirtualClock {
  return virtualClock(60_000 - seconds * 1000 - (Date.now() % 60_000));
}

function ids(stdout: string): string[] {
  return (JSON.parse(stdout) as Array<{ id: string }>).map((entry) => entry.id);
}

function expectExactly(received: string[], expected: string[]): void {
  expect(new Set(received).size).toBe(received.length);
  expect([...received].sort()).toEqual([...expected].sort());
}

const LIBRARY_ONLY: FaultOptions = { paths: ['/v1/library'], retryAfter429: 1 };

describe('lk library --all under faults and the rate limit', () => {
  it('with 10% 429, 5% 500 and 2% resets returns exactly the 3,000 entries, each once', async () => {
    const test = await bed({ entries: 3000, rateLimit: 0, faults: { ...LIBRARY_ONLY, seed: 7, rate429: 0.1, rate500: 0.05, rateReset: 0.02 } });
    const result = await test.lk(['library', '--all', '--json']);
    expect(result.code).toBe(0);
    expectExactly(ids(result.stdout), test.sandbox.entryIds('demo'));
    expect(test.sandbox.counters.byStatus['429']).toBeGreaterThan(0);
    expect(test.sandbox.counters.byStatus['500']).toBeGreaterThan(0);
  }, 40_000);

  it('bodies cut mid-way and 503s (Retry-After 1) are retried until the listing is whole', async () => {
    const shares: FaultOptions = { ...LIBRARY_ONLY, rateTruncate: 0.15, rate503: 0.1 };
    // The first seed whose first ten requests include both faults: the test cannot pass without meeting them.
    const fatesOf = (seed: number) => Array.from({ length: 10 }, (_, n) => faultFate({ ...shares, seed }, n));
    const seed = Array.from({ length: 100 }, (_, n) => n + 1).find((n) => fatesOf(n).includes('truncate') && fatesOf(n).includes('503'))!;
    const faults = { ...shares, seed };
    const test = await bed({ entries: 1000, rateLimit: 0, faults });
    const result = await test.lk(['library', '--all', '--json']);
    expect(result.code).toBe(0);
    expectExactly(ids(result.stdout), test.sandbox.entryIds('demo'));
  }, 40_000);

  it('within a budget of 30 a minute, 20 of them already spent by another key, 3,000 entries (30 pages) meet no 429', async () => {
    const test = await bed({ entries: 3000, rateLimit: 30, clock: windowEndingIn(6) });
    for (let i = 0; i < 20; i++) {
      const response = await fetch(`${test.sandbox.url}/v1/me`, { headers: { authorization: `Bearer ${test.sandbox.key('other')}` } });
      expect(response.status).toBe(200);
    }
    const result = await test.lk(['library', '--all', '--json']);
    expect(result.code).toBe(0);
    expectExactly(ids(result.stdout), test.sandbox.entryIds('demo'));
    expect(test.sandbox.counters.rateLimited).toBe(0);
    expect(test.sandbox.counters.byPath['/v1/library']).toBe(30);
  }, 30_000);

  it('a budget spent mid-listing is waited out, not hit: 15 pages through 10 a minute, no 429, and silent with -q', async () => {
    const test = await bed({ entries: 1500, rateLimit: 10, clock: windowEndingIn(4) });
    const result = await test.lk(['library', '--all', '--json', '-q']);
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toHaveLength(1500);
    expect(test.sandbox.counters.rateLimited).toBe(0);
    expect(result.stderr).toBe('');
  }, 30_000);

  it('a second process paces itself from the budget the first one left in the cache, and says what it waits for', async () => {
    // The first run is short (3 pages) so that it surely ends before the window does.
    const test = await bed({ entries: 300, rateLimit: 3, clock: windowEndingIn(5) });
    const first = await test.lk(['library', '--all', '--json']);
    expect(first.code).toBe(0);
    const second = await test.lk(['library', '--limit', '5', '--json']);
    expect(second.code).toBe(0);
    expect(ids(second.stdout)).toHaveLength(5);
    expect(test.sandbox.counters.rateLimited).toBe(0);
    expect(second.stderr).toMatch(/^lk: waiting \d+s for the rate limit: the budget of 3 requests a minute is spent until .+$/m);
    const [file] = readdirSync(join(test.home.cacheDir, 'ratelimit'));
    expect(readFileSync(join(test.home.cacheDir, 'ratelimit', file!), 'utf8')).not.toContain(test.sandbox.key('full'));
  }, 30_000);

  it('a second key of the same account paces from the budget the first one left, once lk knows whose keys they are', async () => {
    const test = await bed({ entries: 300, rateLimit: 5, clock: windowEndingIn(7) });
    // GET /v1/me tells lk which account each key belongs to (2 of the 5 requests).
    expect((await test.lk(['whoami'])).code).toBe(0);
    expect((await test.lk(['whoami'], { key: 'other' })).code).toBe(0);
    const first = await test.lk(['library', '--all', '--json']);
    expect(first.code).toBe(0);
    const second = await test.lk(['library', '--limit', '5', '--json'], { key: 'other' });
    expect(second.code).toBe(0);
    expect(test.sandbox.counters.rateLimited).toBe(0);
    expect(second.stderr).toMatch(/^lk: waiting \d+s for the rate limit/m);
  }, 30_000);

  it('two processes on one account (keys full and other) share 30 a minute: both complete, fewer than 3 429s', async () => {
    // 60 pages between them through a budget of 30: one of the windows has to be waited for.
    const test = await bed({ entries: 3000, rateLimit: 30, clock: windowEndingIn(6) });
    const [a, b] = await Promise.all([test.lk(['library', '--all', '--json']), test.lk(['library', '--all', '--json'], { key: 'other' })]);
    expect(a.code).toBe(0);
    expect(b.code).toBe(0);
    expectExactly(ids(a.stdout), test.sandbox.entryIds('demo'));
    expectExactly(ids(b.stdout), test.sandbox.entryIds('demo'));
    expect(test.sandbox.counters.rateLimited).toBeLessThan(3);
  }, 40_000);

  it('entries added while paging give no duplicate, and every entry there before is present', async () => {
    const test = await bed({ entries: 1000, rateLimit: 0, faults: { paths: ['/v1/library'], addEntriesPerRequest: 7 } });
    const before = test.sandbox.entryIds('demo');
    const result = await test.lk(['library', '--all', '--json']);
    expect(result.code).toBe(0);
    const received = ids(result.stdout);
    expect(new Set(received).size).toBe(received.length);
    expect(received).toEqual(expect.arrayContaining(before));
    expect(result.stderr).toMatch(/entries were added or removed while paging/);
  });

  it('pages answered out of order while entries are added still lose nothing: the stepped-over span is read again', async () => {
    // Newest first; every request adds 3 entries before it is answered; page 2 is answered last.
    let next = 500;
    const entries = Array.from({ length: 500 }, (_, i) => ({ id: `e${500 - i}` }));
    const before = entries.map((entry) => entry.id);
    const fake = await startFakeApi((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const page = Number(url.searchParams.get('page') ?? 1);
      const limit = Number(url.searchParams.get('limit') ?? 20);
      setTimeout(
        () => {
          for (let i = 0; i < 3; i++) entries.unshift({ id: `e${++next}` });
          const items = entries.slice((page - 1) * limit, page * limit);
          sendJson(res, 200, { ...(envelope(items) as object), total: entries.length, hasMore: page * limit < entries.length });
        },
        page === 2 ? 800 : 0,
      );
    });
    fakes.push(fake);
    const home = tempHome();
    const env = { LK_BASE_URL: fake.url, LK_API_KEY: validKey(), LK_CONFIG_DIR: home.configDir, LK_CACHE_DIR: home.cacheDir };
    const result = await runChild(['library', '--all', '--ndjson'], env);
    expect(result.code).toBe(0);
    const received = ndjsonLines(result.stdout).map((entry) => (entry as { id: string }).id);
    expect(new Set(received).size).toBe(received.length);
    expect(received).toEqual(expect.arrayContaining(before));
    // More than the 5 pages: the span page 2 stepped over was fetched again.
    expect(fake.requests.length).toBeGreaterThan(5);
  });
});

describe('giving up', () => {
  it('--no-wait exits 5 on the first 429, naming when the budget resets', async () => {
    const test = await bed({ entries: 300, rateLimit: 0, faults: { ...LIBRARY_ONLY, rate429: 1, retryAfter429: 20 } });
    const result = await test.lk(['library', '--all', '--json', '--no-wait']);
    expect(result.code).toBe(5);
    expect(test.sandbox.counters.byPath['/v1/library']).toBe(1);
    expect(result.stderr).toMatch(/^lk: rate limited \(api\.rate_limited\): the budget resets at .+ \(in 20s\)\nTry again after /);
  });

  it('a Retry-After longer than --max-wait exits 5 at once rather than wait', async () => {
    const test = await bed({ entries: 300, rateLimit: 0, faults: { ...LIBRARY_ONLY, rate429: 1, retryAfter429: 30 } });
    const result = await test.lk(['library', '--max-wait', '5']);
    expect(result.code).toBe(5);
    expect(test.sandbox.counters.byPath['/v1/library']).toBe(1);
    expect(result.stderr).toMatch(/or allow a longer --max-wait/);
  });

  it('a server that stalls past --timeout ends in exit 1 after 4 tries, saying so', async () => {
    const test = await bed({ entries: 300, rateLimit: 0, faults: { ...LIBRARY_ONLY, rateStall: 1, stallMs: 5000 } });
    const result = await test.lk(['library', '--timeout', '1']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^lk: GET \/v1\/library failed: timed out \(tried 4 times\)$/m);
    expect(test.sandbox.counters.byPath['/v1/library']).toBe(4);
  }, 30_000);

  it('a 503 on every try ends in exit 1 naming the error and the tries; a 404 is never retried', async () => {
    const test = await bed({ entries: 300, rateLimit: 0, faults: { ...LIBRARY_ONLY, rate503: 1 } });
    const result = await test.lk(['library']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/\(server\.unavailable\) \(tried 4 times\)/);
    expect(test.sandbox.counters.byStatus['503']).toBe(4);
    test.sandbox.faults = {};
    test.sandbox.resetCounters();
    const missing = await test.lk(['library', 'show', 'nope404']);
    expect(missing.code).toBe(6);
    expect(test.sandbox.counters.requests).toBe(1);
  }, 30_000);

  it('Ctrl-C mid-paging exits 130 with one line and no stack trace', async () => {
    const test = await bed({ entries: 3000, rateLimit: 0, faults: { paths: ['/v1/library'], latencyMs: 300 } });
    const result = await runChild(['library', '--all', '--ndjson'], test.env('full'), { interruptAfterOutput: true });
    expect(result.code).toBe(130);
    expect(result.stdout.length).toBeGreaterThan(0);
    expect(result.stderr.trim()).toBe('lk: interrupted');
  });
});

/** A well-formed key for the fake server, which checks nothing. */
function validKey(): string {
  return `lk_${'A'.repeat(49)}`;
}

/** Runs lk; with interruptAfterOutput, sends SIGINT once the first output has arrived (paging is then under way). */
function runChild(args: string[], env: Record<string, string | undefined>, options: { interruptAfterOutput?: boolean } = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(...lkSpawnArgs(args), {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, LANG: 'C.UTF-8', TZ: 'UTC', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let interrupted = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (options.interruptAfterOutput && !interrupted) {
        interrupted = true;
        child.kill('SIGINT');
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
