import { parse } from 'csv-parse/sync';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, truncateSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startFakeApi } from './fake-api.js';
import { lkSpawnArgs, runLkInProcess, startTestBed, tempHome, virtualClock, type RunResult, type TestBed } from './harness.js';
import { tempDir } from '../support/temp-dir.js';

// exportIntervalSeconds 0: the server would allow every export, so any request the client makes shows in the counters.
let bed: TestBed;

/** A private cache and output folder per scenario, so no test finds another's export in its cache. */
function scenario(): { cache: string; out: string } {
  const root = tempDir('lk-export-');
  const out = join(root, 'out');
  mkdirSync(out);
  return { cache: join(root, 'cache'), out };
}

function lkExport(testBed: TestBed, cache: string, args: string[]): Promise<RunResult> {
  return testBed.lk(['export', ...args], { env: { LK_CACHE_DIR: cache } });
}

/** Everything in a folder, dotfiles (temporary names) included. */
function listing(dir: string): string[] {
  return readdirSync(dir).sort();
}

/** The one cached export body under a cache folder (exports/<instance>/accounts/<account>/export.json), if any. */
function cachedBodyPath(cache: string): string | undefined {
  const root = join(cache, 'exports');
  if (!existsSync(root)) return undefined;
  for (const instance of readdirSync(root)) {
    const accounts = join(root, instance, 'accounts');
    for (const account of existsSync(accounts) ? readdirSync(accounts) : []) {
      const body = join(accounts, account, 'export.json');
      if (existsSync(body)) return body;
    }
  }
  return undefined;
}

/** Export names carry seconds: let the clock tick over so each run's name is its own. */
/** The bed's clock moved on to the next second, so that the next export is stamped a second later. */
async function nextSecond(): Promise<void> {
  await bed.clock!.sleep(1000);
}

/** The tests of this area, in parts that run as files of their own, side by side. */
export function exportTests(part: 'a' | 'b'): void {
  // Each file's own bed: a worker imports this module once for all its files (isolate: false), so hooks at its top
  // level would be registered for the first file alone, and the next would find that file's sandbox closed.
  beforeAll(async () => {
    bed = await startTestBed({ entries: 40, rateLimit: 0, exportIntervalSeconds: 0 });
  });

  afterAll(async () => {
    await bed.sandbox.close();
  });

  if (part === 'a') {
    describe('lk export', () => {
      it('two exports in a row make one export request, and both outputs are identical', async () => {
        const { cache } = scenario();
        bed.sandbox.resetCounters();
        const first = await lkExport(bed, cache, []);
        const second = await lkExport(bed, cache, []);
        expect(first.code).toBe(0);
        expect(second.code).toBe(0);
        expect(bed.sandbox.counters.exports).toBe(1);
        expect(bed.sandbox.counters.byPath['/v1/me']).toBe(1); // the account name is remembered per key
        expect(second.stdout).toBe(first.stdout);
        expect(JSON.parse(first.stdout)).toBeTypeOf('object');
        expect(second.stderr).toMatch(/from the cache/);
      });

      it('-q silences the cache notice', async () => {
        const { cache } = scenario();
        await lkExport(bed, cache, []);
        const quiet = await lkExport(bed, cache, ['-q']);
        expect(quiet.code).toBe(0);
        expect(quiet.stderr).toBe('');
      });

      it('--fresh within the hour asks the server, not the cache: one that allows it (every export, here) gives a new one', async () => {
        const { cache } = scenario();
        expect((await lkExport(bed, cache, [])).code).toBe(0);
        bed.sandbox.resetCounters();
        const fresh = await lkExport(bed, cache, ['--fresh']);
        expect(fresh.code, fresh.stderr).toBe(0);
        expect(fresh.stderr).not.toMatch(/from the cache/);
        expect(bed.sandbox.counters.exports).toBe(1);
      });

      it('--output-dir with --keep 3 after five runs leaves the three newest, and unrelated files alone', async () => {
        const { cache, out } = scenario();
        writeFileSync(join(out, 'notes.txt'), 'mine');
        writeFileSync(join(out, 'lk-export-someone-else-20200101T000000Z.json'), '{}');
        bed.sandbox.resetCounters();
        const written: string[] = [];
        for (let run = 0; run < 5; run += 1) {
          if (run > 0) await nextSecond();
          const before = new Set(listing(out));
          const result = await lkExport(bed, cache, ['--output-dir', out, '--keep', '3', '--max-age', '0s']);
          expect(result.code).toBe(0);
          written.push(...listing(out).filter((name) => !before.has(name)));
        }
        expect(bed.sandbox.counters.exports).toBe(5);
        expect(written).toHaveLength(5);
        for (const name of written) expect(name).toMatch(/^lk-export-[\w.-]+-\d{8}T\d{6}Z\.json$/);
        expect(listing(out)).toEqual([...written.slice(-3), 'lk-export-someone-else-20200101T000000Z.json', 'notes.txt'].sort());
        expect(readFileSync(join(out, 'notes.txt'), 'utf8')).toBe('mine');
      });

      describe.each([
        ['a 500 on every try', { paths: ['/v1/export'], rate500: 1 }],
        ['a body cut short', { paths: ['/v1/export'], rateTruncate: 1 }],
        ['an HTML page answered with 200', { paths: ['/v1/export'], htmlBody: true }],
      ])('when the export fails with %s', (_name, faults) => {
        it('exits 1 and leaves the output file, the rotation set and the cache as they were, with no temporary files', async () => {
          const file = scenario();
          const dir = scenario();
          const existing = join(file.out, 'backup.json');
          writeFileSync(existing, '{"old":true}');
          const rotationSet = ['lk-export-demo-20200101T000000Z.json', 'lk-export-demo-20200102T000000Z.json'];
          for (const name of rotationSet) writeFileSync(join(dir.out, name), '{"old":true}');
          bed.sandbox.faults = faults;
          let results: RunResult[];
          try {
            results = await Promise.all([
              lkExport(bed, file.cache, ['-o', existing]),
              lkExport(bed, dir.cache, ['--output-dir', dir.out, '--keep', '1']),
            ]);
          } finally {
            bed.sandbox.faults = {};
          }
          for (const result of results) {
            expect(result.code).toBe(1);
            expect(result.stderr).toMatch(/^lk: /);
            expect(result.stderr).not.toMatch(/wrote|Complete/i);
          }
          expect(listing(file.out)).toEqual(['backup.json']);
          expect(readFileSync(existing, 'utf8')).toBe('{"old":true}');
          expect(listing(dir.out)).toEqual(rotationSet);
          expect(cachedBodyPath(file.cache)).toBeUndefined();
          expect(cachedBodyPath(dir.cache)).toBeUndefined();
        });
      });

      it('a truncated cache file is detected and fetched again', async () => {
        const { cache } = scenario();
        bed.sandbox.resetCounters();
        const first = await lkExport(bed, cache, []);
        expect(first.code).toBe(0);
        const body = cachedBodyPath(cache)!;
        truncateSync(body, Math.floor(statSync(body).size / 2));
        const second = await lkExport(bed, cache, []);
        expect(second.code).toBe(0);
        expect(second.stderr).toMatch(/ignoring the cached export/);
        expect(bed.sandbox.counters.exports).toBe(2);
        expect(Object.keys(JSON.parse(second.stdout) as object)).toEqual(Object.keys(JSON.parse(first.stdout) as object));
        const third = await lkExport(bed, cache, []);
        expect(third.stdout).toBe(second.stdout);
        expect(bed.sandbox.counters.exports).toBe(2);
      });

      it('--format csv writes one CSV per collection, each parsing back to as many rows as the array holds', async () => {
        const { cache, out } = scenario();
        const json = JSON.parse((await lkExport(bed, cache, [])).stdout) as Record<string, unknown>;
        const result = await lkExport(bed, cache, ['--format', 'csv', '--output-dir', out]);
        expect(result.code).toBe(0);
        const [folder] = listing(out);
        expect(folder).toMatch(/^lk-export-[\w.-]+-\d{8}T\d{6}Z$/);
        const files = listing(join(out, folder!));
        const collections = Object.entries(json).filter(
          ([, value]) => Array.isArray(value) && value.every((item) => item && typeof item === 'object' && !Array.isArray(item)),
        );
        expect(collections.some(([, value]) => (value as unknown[]).length > 0)).toBe(true);
        for (const [name, items] of collections) {
          expect(files).toContain(`${name}.csv`);
          const rows = parse(readFileSync(join(out, folder!, `${name}.csv`), 'utf8'), { columns: true }) as unknown[];
          expect(rows).toHaveLength((items as unknown[]).length);
        }
        if (collections.length < Object.keys(json).length) expect(files).toContain('export.csv');
      });

      it('--format csv without --output-dir is a usage error before any request', async () => {
        const { cache } = scenario();
        bed.sandbox.resetCounters();
        const result = await lkExport(bed, cache, ['--format', 'csv']);
        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(/^lk: --format csv needs --output-dir/);
        expect(bed.sandbox.counters.requests).toBe(0);
      });

      it.each([
        [['--max-age', '5x'], /invalid --max-age "5x"/],
        [['--keep', '0', '--output-dir', '.'], /invalid --keep "0"/],
        [['--keep', '3'], /--keep needs --output-dir/],
        [['--fresh', '--max-age', '1h'], /--fresh or --max-age/],
      ])('%j is a usage error (exit 2) before any request', async (args, message) => {
        const { cache } = scenario();
        bed.sandbox.resetCounters();
        const result = await lkExport(bed, cache, args);
        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(message);
        expect(bed.sandbox.counters.requests).toBe(0);
      });

      it('--gzip output gunzips to the same JSON, named .json.gz in --output-dir', async () => {
        const { cache, out } = scenario();
        const plain = await lkExport(bed, cache, ['-o', join(out, 'plain.json')]);
        const gzipped = await lkExport(bed, cache, ['-o', join(out, 'packed.json.gz'), '--gzip']);
        expect([plain.code, gzipped.code]).toEqual([0, 0]);
        const expected = readFileSync(join(out, 'plain.json'), 'utf8');
        expect(gunzipSync(readFileSync(join(out, 'packed.json.gz'))).toString('utf8')).toBe(expected);
        const dir = join(out, 'dir');
        expect((await lkExport(bed, cache, ['--output-dir', dir, '--gzip'])).code).toBe(0);
        const [name] = listing(dir);
        expect(name).toMatch(/^lk-export-[\w.-]+-\d{8}T\d{6}Z\.json\.gz$/);
        expect(gunzipSync(readFileSync(join(dir, name!))).toString('utf8')).toBe(expected);
      });

      it('two concurrent lk export processes make exactly one export request and write identical outputs', async () => {
        const { cache } = scenario();
        bed.sandbox.resetCounters();
        bed.sandbox.faults = { paths: ['/v1/export'], latencyMs: 800 }; // a slow export, so that the two runs overlap
        let a: RunResult | undefined;
        let b: RunResult | undefined;
        try {
          [a, b] = await Promise.all([lkExport(bed, cache, []), lkExport(bed, cache, [])]);
        } finally {
          bed.sandbox.faults = {};
        }
        expect([a!.code, b!.code]).toEqual([0, 0]);
        expect(bed.sandbox.counters.exports).toBe(1);
        expect(a!.stderr + b!.stderr).toMatch(/another lk export .* waiting for it/);
        expect(a!.stdout.length).toBeGreaterThan(0);
        expect(b!.stdout).toBe(a!.stdout);
      });
    });
  }
  if (part === 'a') {
    describe('lk export against the hourly limit', () => {
      let hourly: TestBed;

      beforeAll(async () => {
        hourly = await startTestBed({ entries: 10, rateLimit: 0 });
      });

      afterAll(async () => {
        await hourly.sandbox.close();
      });

      it('a 429 falls back to a cache within --max-age, and without one exits 5 naming when to retry', async () => {
        const { cache } = scenario();
        const first = await lkExport(hourly, cache, []);
        expect(first.code).toBe(0);
        // Age the cache past the hour, so the client asks the server again (which refuses: its hour is not over).
        const metaPath = join(cachedBodyPath(cache)!, '..', 'meta.json');
        const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as { fetchedAt: string };
        meta.fetchedAt = new Date(Date.now() - 2 * 3600_000).toISOString();
        writeFileSync(metaPath, JSON.stringify(meta));

        const fallback = await lkExport(hourly, cache, ['--max-age', '1d']);
        expect(fallback.code).toBe(0);
        expect(fallback.stdout).toBe(first.stdout);
        expect(fallback.stderr).toMatch(/refused a new export/);

        const refused = await lkExport(hourly, cache, []);
        expect(refused.code).toBe(5);
        expect(refused.stdout).toBe('');
        expect(refused.stderr).toMatch(/try again after (\d{4}-\d{2}-\d{2} )?\d{2}:\d{2}:\d{2} \(in /);
      });

      it("a 429 that spent the minute's budget is waited out like any request, not taken for the export hour", async () => {
        let exportRequests = 0;
        const api = await startFakeApi((req, res) => {
          if (req.url?.startsWith('/v1/me')) return sendJson(res, 200, { account: { username: 'minute' } });
          // An instance without the endpoints lk export completes an export from (profile, notifications, achievements).
          if (!req.url?.startsWith('/v1/export')) return sendJson(res, 404, { code: 'not_found', message: 'no such endpoint' });
          exportRequests += 1;
          if (exportRequests === 1) {
            res.writeHead(429, {
              'content-type': 'application/json',
              'retry-after': '1',
              'x-ratelimit-limit': '60',
              'x-ratelimit-remaining': '0',
              'x-ratelimit-reset': '1',
            });
            return res.end(JSON.stringify({ code: 'api.rate_limited', message: 'slow down' }));
          }
          return sendJson(res, 200, { library: [{ id: 'e1' }] });
        });
        try {
          const home = tempHome();
          const env = { LK_BASE_URL: api.url, LK_API_KEY: `lk_${'Q'.repeat(43)}abc123`, LK_CONFIG_DIR: home.configDir, LK_CACHE_DIR: home.cacheDir };
          // In process on a virtual clock: the second's wait is waited out at once, and seen.
          const clock = virtualClock();
          const run = await runLkInProcess(['export'], { env, now: clock.now, sleep: clock.sleep });
          expect(run.code, run.stderr).toBe(0);
          expect(JSON.parse(run.stdout)).toEqual({ library: [{ id: 'e1' }] });
          expect(exportRequests).toBe(2);
          expect(clock.shift).toBeGreaterThanOrEqual(1000);
        } finally {
          await api.close();
        }
      });
    });
  }
  if (part === 'b') {
    describe('Ctrl-C during lk export', () => {
      // A 30,000-entry export twice a test: seconds on a quiet machine, minutes on a loaded one. Every wait is an event.
      let big: TestBed;

      beforeAll(async () => {
        big = await startTestBed({ entries: 30_000, rateLimit: 0, exportIntervalSeconds: 0 });
      });

      afterAll(async () => {
        await big.sandbox.close();
      });

      /** Runs `lk export -o` and sends SIGINT when `interruptWhen` says so (given a way to do it). */
      function interruptedExport(output: string, cache: string, interruptWhen: (interrupt: () => void) => () => void) {
        return new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
          const env = { PATH: process.env.PATH, HOME: process.env.HOME, LANG: 'C.UTF-8', ...big.env('full'), LK_CACHE_DIR: cache };
          const child = spawn(...lkSpawnArgs(['export', '-o', output]), { env, stdio: ['ignore', 'pipe', 'pipe'] });
          const stop = interruptWhen(() => child.kill('SIGINT'));
          let stderr = '';
          child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
          child.on('error', reject);
          child.on('close', (code) => {
            stop();
            resolve({ code, stderr });
          });
        });
      }

      it('while the export is on its way: exit 130, the old backup untouched, and the next run is not kept waiting', async () => {
        const { cache, out } = scenario();
        const output = join(out, 'backup.json');
        writeFileSync(output, 'the previous backup');
        big.sandbox.faults = { paths: ['/v1/export'], latencyMs: 3000 };
        try {
          // Interrupted once the server holds the export request: lk is surely running, and the export on its way
          // (a fixed delay could fire before a loaded machine had started lk at all).
          const before = big.sandbox.counters.byPath['/v1/export'] ?? 0;
          const run = await interruptedExport(output, cache, (interrupt) => {
            const poll = setInterval(() => {
              if ((big.sandbox.counters.byPath['/v1/export'] ?? 0) > before) {
                clearInterval(poll);
                setTimeout(interrupt, 200);
              }
            }, 25);
            return () => clearInterval(poll);
          });
          expect(run.code).toBe(130);
          expect(run.stderr.trim()).toBe('lk: interrupted');
          expect(readFileSync(output, 'utf8')).toBe('the previous backup');
          expect(listing(out)).toEqual(['backup.json']);
        } finally {
          big.sandbox.faults = {};
        }
        // The lock of the interrupted run is gone: a new run fetches at once and writes the whole export.
        const next = await lkExport(big, cache, ['-o', output]);
        expect(next.code).toBe(0);
        expect(next.stderr).not.toMatch(/waiting/);
        expect((JSON.parse(readFileSync(output, 'utf8')) as { library: unknown[] }).library).toHaveLength(30_000);
      }, 120_000);

      it('the moment a temporary file appears in the output folder: the backup is the old one or the whole new one, and no temporary file is left', async () => {
        const { cache, out } = scenario();
        const output = join(out, 'backup.json');
        writeFileSync(output, 'the previous backup');
        const run = await interruptedExport(output, cache, (interrupt) => {
          const watcher = watch(out, (_event, name) => {
            if (name && name !== 'backup.json') interrupt();
          });
          return () => watcher.close();
        });
        expect([0, 130]).toContain(run.code);
        const text = readFileSync(output, 'utf8');
        if (run.code === 130) expect(text).toBe('the previous backup');
        else expect((JSON.parse(text) as { library: unknown[] }).library).toHaveLength(30_000);
        expect(listing(out)).toEqual(['backup.json']);
      }, 120_000);
    });
  }
}
