import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { sleep } from '../../src/util/sleep.js';
import { sha256Hex } from '../../src/util/hash.js';
import { lkSpawnArgs, runLkInProcess, tempHome, virtualClock } from './harness.js';
import { entries, json, listing, ME, pages, silentFor, startHostileServer, trickle, type HostileServer, type Mode } from './hostile-server.js';
import { until } from '../support/until.js';
import { describeWith } from '../support/outside-tools.js';

/** A pid no process can have on Linux (PID_MAX_LIMIT, 2^22): what a temporary file of a long-gone run carries. */
const DEAD_PID = 4_194_304;

/** Issue 18: a server and a machine that work against lk. Each describe is one numbered item of the issue. */

const KEY = `lk_${'Kx7Qm2Vb9Tn4Rw6Yp1Zs3Lc5Hd8Jf0Gu2Ne4Ma6Pb8Qc1Rd3Se5Tf7'.slice(0, 49)}`;
const servers: HostileServer[] = [];
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function hostile(routes: Record<string, Mode>, maxRequests = 200): Promise<HostileServer> {
  const server = await startHostileServer(routes, { maxRequests });
  servers.push(server);
  return server;
}

type Home = ReturnType<typeof tempHome>;

function envFor(server: HostileServer, home: Home = tempHome(), extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return { LK_BASE_URL: server.url, LK_API_KEY: KEY, LK_CONFIG_DIR: home.configDir, LK_CACHE_DIR: home.cacheDir, ...extra };
}

type LkOptions = Omit<NonNullable<Parameters<typeof runLkInProcess>[1]>, 'env'> & { home?: Home; env?: Record<string, string | undefined> };

function lk(server: HostileServer, args: string[], options: LkOptions = {}) {
  const { home, env, ...rest } = options;
  return runLkInProcess(args, { ...rest, env: envFor(server, home, env) });
}

function stamp(epochMs: number): string {
  return new Date(epochMs)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

function exportDir(home: Home, server: HostileServer): string {
  return join(home.cacheDir, 'exports', sha256Hex(server.url).slice(0, 16), 'accounts', 'mallory');
}

describe('1. --keep never deletes the export just written', () => {
  it('beside an export stamped in the future, --keep 1 keeps the new export and leaves the future one alone', async () => {
    const server = await hostile({ '/v1/export': json({ library: [{ id: 'e1' }] }) });
    const dir = join(tempHome().root, 'backups');
    mkdirSync(dir);
    const future = `lk-export-mallory-${stamp(Date.now() + 400 * 86_400_000)}.json`;
    const old = `lk-export-mallory-${stamp(Date.now() - 86_400_000)}.json`;
    writeFileSync(join(dir, future), '{"from":"a machine whose clock runs ahead"}');
    writeFileSync(join(dir, old), '{"from":"yesterday"}');
    const run = await lk(server, ['export', '--output-dir', dir, '--keep', '1']);
    expect(run.code).toBe(0);
    const left = readdirSync(dir);
    const written = left.filter((name) => name !== future && name !== old);
    expect(written).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(dir, written[0]!), 'utf8'))).toEqual({ library: [{ id: 'e1' }] });
    expect(left).toContain(future);
    expect(left).not.toContain(old);
    expect(run.stderr).toContain(`${future}: stamped in the future`);
  });
});

describe('2. a listing body of the wrong shape is refused before anything is written', () => {
  for (const body of ['null', '"x"', '{"items":null}', '{"upcoming":[]}', '42']) {
    it(`lk calendar --format ics -o feed.ics on ${body}: exit 1 "unexpected response", the feed untouched`, async () => {
      const server = await hostile({ '/v1/calendar': json(body) });
      const feed = join(tempHome().root, 'feed.ics');
      writeFileSync(feed, 'BEGIN:VCALENDAR\r\nGOOD FEED\r\nEND:VCALENDAR\r\n');
      const run = await lk(server, ['calendar', '--format', 'ics', '-o', feed]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^lk: unexpected response from \/v1\/calendar/);
      expect(readFileSync(feed, 'utf8')).toContain('GOOD FEED');
    });
  }

  it('a plain array and {items:[…]} are both a calendar', async () => {
    const item = { id: 'c1', airsAt: '2099-01-01T20:00:00.000Z', show: { title: 'Show' }, season: 1, episode: 2 };
    for (const body of [[item], { items: [item] }]) {
      const server = await hostile({ '/v1/calendar': json(body) });
      const run = await lk(server, ['calendar', '--json']);
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual([item]);
    }
  });
});

describe('3. --all never ends short of total without saying so', () => {
  it('page 2 answering 200 {"error":"oops"}: exit 1, unexpected response', async () => {
    const server = await hostile({
      '/v1/library': pages((page) => (page === 1 ? { items: entries(0, 100), hasMore: true, total: 300 } : { error: 'oops' })),
    });
    const run = await lk(server, ['library', '--all', '--json']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/unexpected response from \/v1\/library \(page 2\)/);
  });

  it('hasMore: true with an empty page: exit 1, naming 100 of 1,000', async () => {
    const server = await hostile({ '/v1/library': pages((page) => ({ items: page === 1 ? entries(0, 100) : [], hasMore: true, total: 1000 })) });
    const run = await lk(server, ['library', '--all', '--json']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/received 100 of 1,000/);
  });

  it('hasMore: false after 100 of a steady total of 300: exit 1, naming 100 of 300', async () => {
    const server = await hostile({ '/v1/library': pages((page) => ({ items: page === 1 ? entries(0, 100) : [], hasMore: page === 1, total: 300 })) });
    const run = await lk(server, ['library', '--all', '--json']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/received 100 of 300/);
  });

  for (const body of ['{"items":null,"hasMore":true,"total":5}', 'null', '"hello"', '{"items":null}']) {
    it(`a first page of ${body}: exit 1, not []`, async () => {
      const server = await hostile({ '/v1/library': json(body) });
      const run = await lk(server, ['library', '--all', '--json']);
      expect(run.code).toBe(1);
      expect(run.stdout).not.toBe('[]\n');
      expect(run.stderr).toMatch(/^lk: unexpected response from \/v1\/library/);
    });
  }
});

describe('4. config and cache folders are checked like ssh checks ~/.ssh', () => {
  it('a world-writable cache folder with a planted exports symlink is not used; the backup comes from the server', async () => {
    const server = await hostile({ '/v1/export': json({ library: [{ id: 'real' }] }) });
    const home = tempHome();
    const victim = join(home.root, 'victim');
    mkdirSync(victim);
    mkdirSync(home.cacheDir);
    chmodSync(home.cacheDir, 0o777);
    symlinkSync(victim, join(home.cacheDir, 'exports'));
    const backup = join(home.root, 'backup.json');
    writeFileSync(backup, '{"real":"backup"}');
    const run = await lk(server, ['export', '-o', backup], { home });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`${home.cacheDir} is writable by other users`);
    expect(readdirSync(victim)).toEqual([]);
    expect(JSON.parse(readFileSync(backup, 'utf8'))).toEqual({ library: [{ id: 'real' }] });
  });

  it('a forged cached export in a folder others can write is never served', async () => {
    const server = await hostile({ '/v1/export': json({ library: [{ id: 'real' }] }) });
    const home = tempHome();
    expect((await lk(server, ['export', '-o', join(home.root, 'first.json')], { home })).code).toBe(0);
    const dir = exportDir(home, server);
    const forged = '{"library":[{"id":"forged"}]}';
    writeFileSync(join(dir, 'export.json'), forged);
    const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'meta.json'), JSON.stringify({ ...meta, bytes: forged.length, sha256: sha256Hex(forged) }));
    chmodSync(home.cacheDir, 0o777);
    const backup = join(home.root, 'backup.json');
    const run = await lk(server, ['export', '-o', backup], { home });
    expect(run.code).toBe(0);
    expect(readFileSync(backup, 'utf8')).not.toContain('forged');
    expect(server.count('/v1/export')).toBe(2);
  });

  it('a config file in a folder others can write is refused with the chmod to run', async () => {
    const server = await hostile({ '/v1/library': listing(3) });
    const home = tempHome();
    mkdirSync(home.configDir);
    writeFileSync(join(home.configDir, 'config.json'), JSON.stringify({ defaults: { format: 'json' } }), { mode: 0o600 });
    chmodSync(home.configDir, 0o777);
    const run = await lk(server, ['library'], { home });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`lk: ${home.configDir} is writable by other users (mode 0777)`);
    expect(run.stderr).toContain(`chmod 700 ${home.configDir}`);
    expect(server.count('/v1/library')).toBe(0);
  });
});

describe('5. no run of the key is ever shown', () => {
  it('a 401 echoing the first 33 characters of the key prints none of its secret part', async () => {
    const server = await hostile({ '/v1/library': json({ code: 'auth.invalid', message: `bad key ${KEY.slice(0, 33)}` }, 401) });
    const run = await lk(server, ['library'], { env: { LK_DEBUG: '1' } });
    expect(run.code).toBe(3);
    expect(run.stderr).not.toContain(KEY.slice(6, 33));
    expect(run.stderr).not.toContain(KEY.slice(12, 33));
  });

  it('a malformed key from LK_API_KEY_FILE is described by length and shape, never its content', async () => {
    const server = await hostile({});
    const home = tempHome();
    const file = join(home.root, 'secret');
    writeFileSync(file, 'correct-horse-battery-staple\n');
    const run = await lk(server, ['library'], { home, env: { LK_API_KEY: undefined, LK_API_KEY_FILE: file } });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('28 characters');
    for (const part of ['corr', 'horse', 'aple', 'ple']) expect(run.stderr).not.toContain(part);
  });
});

const ESCAPES = 'A\u001b]52;c;ZXZpbA==\u0007B\u001b]0;pwned\u0007C\u001b[2JD';

describe('6. csv and json on a terminal show control characters escaped; pipes keep them exact', () => {
  it('lk library --csv on a terminal writes no escape sequence', async () => {
    const server = await hostile({ '/v1/library': json({ items: [{ id: 'e1', work: { title: ESCAPES } }], hasMore: false, total: 1 }) });
    const run = await lk(server, ['library', '--csv'], { tty: { columns: 80 } });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(run.stdout).toContain('A\\u001b]52;c;ZXZpbA==\\u0007B');
    const piped = await lk(server, ['library', '--csv']);
    expect(piped.stdout).toContain(ESCAPES);
  });
});

describe('7. nothing from the server reaches the terminal raw, in one line, at a sane length', () => {
  const HOSTILE = 'X\u009b2J\u202eY';

  it('JSON output, lk api and auth status --json on a terminal escape U+009B and U+202E; a pipe keeps them', async () => {
    const me = { ...ME, account: { id: 'acc-1', username: `mal${HOSTILE}` } };
    const server = await hostile({
      '/v1/library': json({ items: [{ id: 'e1', work: { title: HOSTILE } }], hasMore: false, total: 1 }),
      '/v1/me': json(me),
    });
    for (const args of [
      ['library', '--json'],
      ['api', '/v1/library'],
      ['auth', 'status', '--json'],
    ]) {
      const run = await lk(server, args, { tty: { columns: 80 } });
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.stdout).not.toMatch(/[\u0080-\u009f\u202a-\u202e]/);
      expect(run.stdout).toContain('\\u009b2J\\u202eY');
    }
    const piped = await lk(server, ['library', '--json']);
    expect((JSON.parse(piped.stdout) as Array<{ work: { title: string } }>)[0]!.work.title).toBe(HOSTILE);
  });

  it('a server message cannot forge a second lk: line, even in an LK_DEBUG stack', async () => {
    const server = await hostile({ '/v1/library': json({ code: 'x', message: `boom\u001b]0;t\u0007\nlk: everything is fine\r\nreally` }, 400) });
    const run = await lk(server, ['library'], { env: { LK_DEBUG: '1' } });
    expect(run.code).toBe(2);
    // LK_DEBUG also shows the request line (lk: GET …); the error itself is one line.
    expect(
      run.stderr.split('\n').filter((line) => line.startsWith('lk: ') && !line.startsWith('lk: GET ')),
      run.stderr,
    ).toHaveLength(1);
    expect(run.stderr).not.toMatch(/^lk: everything/m);
    expect(run.stderr).not.toContain('\u001b');
  });

  it('a 5 MB server message is cut to a sane length', async () => {
    const server = await hostile({ '/v1/library': json({ code: 'x', message: 'A'.repeat(5_000_000) }, 500) });
    const clock = virtualClock();
    const run = await lk(server, ['library'], { env: { LK_DEBUG: '1' }, now: clock.now, sleep: clock.sleep });
    expect(run.code).toBe(1);
    expect(run.stderr.length).toBeLessThan(4000);
    expect(run.stderr).toContain('…');
  });
});

describe('8. a listing that repeats or makes no progress is left, bounded', () => {
  const repeating = () => pages(() => ({ items: entries(0, 100), hasMore: true, total: 300 }));

  for (const args of [
    ['library', '--all', '--json'],
    ['library', '--max', '500', '--json'],
    ['api', '/v1/library', '--paginate'],
  ]) {
    it(`page 1 again and again with hasMore: ${args.join(' ')} stops with exit 1`, async () => {
      const server = await hostile({ '/v1/library': repeating() });
      const run = await lk(server, args);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/page 2 repeats an earlier page/);
      expect(server.count('/v1/library')).toBeLessThan(20);
      expect(server.exhausted).toBe(false);
    });
  }

  it('items without ids and hasMore forever, no total: exit 1, bounded', async () => {
    const server = await hostile({ '/v1/library': pages(() => ({ items: [{ title: 'same' }, { title: 'again' }], hasMore: true })) });
    const run = await lk(server, ['library', '--all', '--json']);
    expect(run.code).toBe(1);
    expect(server.count('/v1/library')).toBeLessThan(10);
    expect(server.exhausted).toBe(false);
  });
});

describe('9. rate-limit headers are held to the minute SPEC.md describes', () => {
  const budget = (): Mode => pages((page) => ({ items: entries((page - 1) * 100, 100), hasMore: page < 3, total: 300 }));
  const withHeaders =
    (reset: string): Mode =>
    (req, res, url, server) => {
      const original = res.writeHead.bind(res);
      res.writeHead = ((status: number, headers: Record<string, string | number>) =>
        original(status, { ...headers, 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset })) as typeof res.writeHead;
      budget()(req, res, url, server);
    };

  for (const reset of [String(Math.floor(Date.now() / 1000)), '1e308', '-5']) {
    it(`X-RateLimit-Reset ${reset}: --all waits at most a minute a page, no Invalid Date, the saved budget within the minute`, async () => {
      const server = await hostile({ '/v1/library': withHeaders(reset) });
      const home = tempHome();
      const clock = virtualClock();
      const run = await lk(server, ['library', '--all', '--json'], { home, now: clock.now, sleep: clock.sleep });
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toHaveLength(300);
      expect(clock.shift).toBeLessThanOrEqual(3 * 61_000);
      expect(run.stderr).not.toMatch(/Invalid Date|\d{5,}s/);
      for (const file of readdirSync(join(home.cacheDir, 'ratelimit'))) {
        const saved = JSON.parse(readFileSync(join(home.cacheDir, 'ratelimit', file), 'utf8')) as { resetAt: number };
        expect(saved.resetAt).toBeLessThanOrEqual(clock.now() + 61_000);
      }
    });
  }

  it('--max-wait 10 refuses a minute-long wait (exit 5) instead of pacing through it', async () => {
    const server = await hostile({ '/v1/library': withHeaders(String(Math.floor(Date.now() / 1000))) });
    const clock = virtualClock();
    const run = await lk(server, ['library', '--all', '--json', '--max-wait', '10'], { now: clock.now, sleep: clock.sleep });
    expect(run.code).toBe(5);
    expect(clock.shift).toBeLessThan(11_000);
  });

  it('a wait beyond the longest timer (2^31-1 ms) does not fire at once', async () => {
    const aborter = new AbortController();
    const outcome = Promise.race([
      sleep(2 ** 31 + 10_000, 'test', aborter.signal).then(
        () => 'woke',
        () => 'aborted',
      ),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 200)),
    ]);
    expect(await outcome).toBe('still waiting');
    aborter.abort();
  });
});

describe('10. --timeout bounds the whole exchange', () => {
  it('a body trickling a byte every 200 ms ends --timeout 1 within seconds', async () => {
    const server = await hostile({ '/v1/me': trickle({ chunkBytes: 1, everyMs: 200, chunks: 300 }) });
    const clock = virtualClock();
    // Four tries of a second each; the backoff between them passes on the virtual clock. Each try takes 60 s if the
    // timeout bounds only the wait for headers: past the test's timeout.
    const run = await lk(server, ['whoami', '--json', '--timeout', '1'], { now: clock.now, sleep: clock.sleep });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/timed out/);
    expect(server.count('/v1/me')).toBe(4);
  }, 20_000);
});

describe('11. a 503 asking for a day', () => {
  const unavailable = json({ code: 'maintenance' }, 503, { 'retry-after': '100000' });

  it('--no-wait: no waiting at all, exit 1 after one request', async () => {
    const server = await hostile({ '/v1/library': unavailable });
    const clock = virtualClock();
    const run = await lk(server, ['library', '--no-wait'], { now: clock.now, sleep: clock.sleep });
    expect(run.code).toBe(1);
    expect(clock.shift).toBe(0);
    expect(server.count('/v1/library')).toBe(1);
  });

  it('without --no-wait, a wait beyond --max-wait is not taken', async () => {
    const server = await hostile({ '/v1/library': unavailable });
    const clock = virtualClock();
    const run = await lk(server, ['library', '--max-wait', '10'], { now: clock.now, sleep: clock.sleep });
    expect(run.code).toBe(1);
    expect(clock.shift).toBeLessThanOrEqual(10_000);
    expect(run.stderr).toMatch(/asked to retry after/);
  });
});

describe('12. a 40,000-character title of emoji and combining marks', () => {
  // The layout's speed (~0.2 s with the cut, 3 s and more without) is the bench's to measure, not a test's.
  it('renders a table cut to the terminal', async () => {
    const title = '😀\u0301'.repeat(13_334);
    const server = await hostile({ '/v1/library': json({ items: [{ id: 'e1', work: { title }, status: 'PLANNED' }], hasMore: false, total: 1 }) });
    const run = await lk(server, ['library'], { tty: { columns: 80 } });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('e1');
    expect(run.stdout.split('\n').every((line) => line.length < 400)).toBe(true);
  });

  it('Ctrl-C during such a listing ends lk at once (a real process: signals)', async () => {
    const title = '😀\u0301'.repeat(13_334);
    const first = { items: Array.from({ length: 20 }, (_, i) => ({ id: `e${i}`, work: { title }, status: 'PLANNED' })), hasMore: true };
    const quiet = silentFor(60_000);
    const server = await hostile({
      '/v1/library': (req, res, url, self) => (url.searchParams.get('page') === '1' ? json(first)(req, res, url, self) : quiet(req, res, url, self)),
    });
    const home = tempHome();
    // A table in a pipe is rendered all the same with --format table; the second page never comes.
    const child = spawn(...lkSpawnArgs(['library', '--all', '--format', 'table']), {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...envFor(server, home), COLUMNS: '80' } as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    // Page 1 is on stdout and page 2 asked for: the server holds it, silent for longer than the test's timeout.
    await until(() => server.count('/v1/library') >= 2 && stdout.includes('TITLE'));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
  }, 30_000);
});

describe('13. reads are bounded', () => {
  describeWith(['mkfifo', 'yes'], 'a FIFO that never ends', () => {
    it('LK_API_KEY_FILE on an endless FIFO reads a few KB and stops', async () => {
      const server = await hostile({});
      const home = tempHome();
      const fifo = join(home.root, 'key.fifo');
      execFileSync('mkfifo', [fifo]);
      // A writer of at most 50 MB, killed after the test: the FIFO never ends as far as lk can tell.
      const writer = spawn('sh', ['-c', `yes lk_abcdefghij | head -c 50000000 > '${fifo}'`], { stdio: 'ignore' });
      children.push(writer);
      const run = await lk(server, ['library'], { home, env: { LK_API_KEY: undefined, LK_API_KEY_FILE: fifo } });
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(/LK_API_KEY_FILE .* holds more than 4 KiB/);
    });
  });

  it('auth login --with-key reads a bounded amount of standard input', async () => {
    const server = await hostile({});
    const run = await runLkInProcess(['auth', 'login', '--base-url', server.url, '--with-key'], {
      env: { ...envFor(server), LK_API_KEY: undefined },
      input: 'a'.repeat(5_000_000),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/more than 4 KiB/);
  });

  it('a body without Content-Length is cut off at max-body while it streams', async () => {
    const server = await hostile({ '/v1/me': trickle({ chunkBytes: 64 * 1024, everyMs: 1, chunks: 1600 }) });
    const run = await lk(server, ['whoami', '--json'], { env: { LK_MAX_BODY: '1MiB' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('larger than 1 MiB');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.streamed[0]).toBeLessThan(20 * 1024 * 1024);
  });

  it('a Content-Length over max-body is refused before the body is read', async () => {
    const server = await hostile({ '/v1/me': trickle({ chunkBytes: 1024, everyMs: 50, chunks: 2000, contentLength: true }) });
    const run = await lk(server, ['whoami', '--json'], { env: { LK_MAX_BODY: '1MiB' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('larger than 1 MiB');
    // Reading up to max-body takes the server 51 s (a KiB every 50 ms): lk let go of it long before.
    await until(() => server.streamed.length === 1);
    expect(server.streamed[0]).toBeLessThan(1024 * 1024);
  });
});

describe('14. values are bounded where they are parsed', () => {
  it('lk config get <typo> exits 2 with nothing stored', async () => {
    const server = await hostile({});
    const run = await lk(server, ['config', 'get', 'timout']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown setting "timout"');
  });

  for (const args of [
    ['--timeout', '3000000'],
    ['--timeout', '1e-300'],
    ['--timeout', '0.00001'],
    ['--max-wait', '1e308'],
    ['--max-wait', '99999999'],
  ]) {
    it(`${args.join(' ')} is refused before any request (exit 2)`, async () => {
      const server = await hostile({ '/v1/library': listing(3) });
      const run = await lk(server, ['library', ...args]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^lk: invalid (timeout|max-wait)/);
      expect(server.count('/v1/library')).toBe(0);
    });
  }

  it('max-body above 512 MiB is refused by config set and in LK_MAX_BODY (exit 2)', async () => {
    const server = await hostile({ '/v1/library': listing(3) });
    expect((await lk(server, ['config', 'set', 'max-body', '1GiB'])).code).toBe(2);
    const run = await lk(server, ['library'], { env: { LK_MAX_BODY: '600MiB' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/at most 512 MiB/);
    expect(server.count('/v1/library')).toBe(0);
  });
});

describe('15. a broken cache folder and broken bodies', () => {
  it('an unusable cache folder does not stop lk export -o FILE', async () => {
    const server = await hostile({ '/v1/export': json({ library: [] }) });
    const home = tempHome();
    mkdirSync(home.root, { recursive: true });
    writeFileSync(join(home.root, 'not-a-folder'), '');
    const out = join(home.root, 'out.json');
    const run = await lk(server, ['export', '-o', out], { home, env: { LK_CACHE_DIR: join(home.root, 'not-a-folder', 'cache') } });
    expect(run.code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ library: [] });
    expect(run.stderr).toMatch(/cache/);
  });

  it('an empty lock file (debris) does not make the next export wait', async () => {
    const server = await hostile({ '/v1/export': json({ library: [] }) });
    const home = tempHome();
    const dir = exportDir(home, server);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(home.cacheDir, 0o700);
    writeFileSync(join(dir, 'lock'), '');
    const run = await lk(server, ['export', '-o', join(home.root, 'out.json')], { home });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain('waiting');
  });

  it('invalid but complete JSON is reported once as not JSON, not retried as "cut short"', async () => {
    const server = await hostile({ '/v1/library': json('{"items": [1, 2,') });
    const run = await lk(server, ['library']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('is not valid JSON');
    expect(run.stderr).not.toContain('cut short');
    expect(server.count('/v1/library')).toBe(1);
  });

  it('an unexpected Content-Encoding is reported once, naming it', async () => {
    const body = gzipSync(JSON.stringify({ items: [], hasMore: false, total: 0 }));
    const server = await hostile({
      '/v1/library': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': body.length });
        res.end(body);
      },
    });
    const run = await lk(server, ['library']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('gzip');
    expect(run.stderr).not.toContain('cut short');
    expect(server.count('/v1/library')).toBe(1);
  });
});

describe('16. symlinked folders, stale temporary files, a capped page size', () => {
  it('auth login does not chmod the target of a symlinked config folder (a shared 1777 folder)', async () => {
    const server = await hostile({});
    const home = tempHome();
    const shared = join(home.root, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    symlinkSync(shared, home.configDir);
    const run = await runLkInProcess(['auth', 'login', '--base-url', server.url, '--with-key'], {
      env: { ...envFor(server, home), LK_API_KEY: undefined },
      input: `${KEY}\n`,
    });
    expect(statSync(shared).mode & 0o7777).toBe(0o1777);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('is writable by other users');
    expect(existsSync(join(shared, 'config.json'))).toBe(false);
  });

  it('stale lk temporary files next to the output and in the cache are removed; fresh ones and others stay', async () => {
    const server = await hostile({ '/v1/export': json({ library: [] }) });
    const home = tempHome();
    const out = join(home.root, 'out');
    mkdirSync(out);
    const hourAgo = new Date(Date.now() - 3_600_000);
    // Left by a process that cannot be running: Linux never gives out a pid of 2^22 (PID_MAX_LIMIT) or above, where
    // a small one such as 4242 may well be some live process on a busy machine (and the file is then kept, rightly).
    const stale = join(out, `.backup.json.${DEAD_PID}-deadbeef.tmp`);
    const fresh = join(out, '.backup.json.4243-cafebabe.tmp');
    const other = join(out, '.backup.json.tmp');
    for (const file of [stale, fresh, other]) writeFileSync(file, 'x');
    utimesSync(stale, hourAgo, hourAgo);
    utimesSync(other, hourAgo, hourAgo);
    const cacheDir = exportDir(home, server);
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    chmodSync(home.cacheDir, 0o700);
    const staleCache = join(cacheDir, `.export.json.${DEAD_PID + 1}-0badf00d.tmp`);
    writeFileSync(staleCache, 'x'.repeat(4096));
    utimesSync(staleCache, hourAgo, hourAgo);
    const run = await lk(server, ['export', '-o', join(out, 'backup.json')], { home });
    expect(run.code).toBe(0);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(staleCache)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    expect(existsSync(other)).toBe(true);
  });

  it('a server capping pages at 50 is followed to the end without catch-up requests', async () => {
    const server = await hostile({ '/v1/library': listing(300, 50) });
    const run = await lk(server, ['library', '--all', '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toHaveLength(300);
    expect(server.count('/v1/library')).toBe(6);
  });
});
