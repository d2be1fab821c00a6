import { statSync, writeFileSync, chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, sendJson, startFakeApi, type FakeApi } from './fake-api.js';
import { runLkInProcess, startTestBed, tempHome, type TestBed } from './harness.js';

const FAKE_KEY = `lk_${'Q'.repeat(43)}abc123`;
let bed: TestBed;

beforeAll(async () => {
  bed = await startTestBed({ entries: 40, rateLimit: 0 });
});

afterAll(async () => {
  await bed.sandbox.close();
});

function fakeEnv(api: FakeApi, home = tempHome()): Record<string, string> {
  return { LK_BASE_URL: api.url, LK_API_KEY: FAKE_KEY, LK_CONFIG_DIR: home.configDir, LK_CACHE_DIR: home.cacheDir };
}

describe('storing the key', () => {
  it('login leaves the config file 0600 in a 0700 folder, and warns when the file is opened up', async () => {
    const home = tempHome();
    const env = { LK_BASE_URL: undefined, LK_API_KEY: undefined, LK_CONFIG_DIR: home.configDir, LK_CACHE_DIR: home.cacheDir };
    const login = await runLkInProcess(['auth', 'login', '--base-url', bed.sandbox.url, '--with-key'], {
      env,
      input: `${bed.sandbox.key('full')}\n`,
    });
    expect(login.code).toBe(0);
    expect(login.stdout + login.stderr).not.toContain(bed.sandbox.key('full'));
    expect(statSync(join(home.configDir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(statSync(home.configDir).mode & 0o777).toBe(0o700);

    const whoami = await runLkInProcess(['whoami', '--json'], { env });
    expect(whoami.code).toBe(0);
    expect(whoami.stderr).toBe('');

    chmodSync(join(home.configDir, 'config.json'), 0o644);
    const warned = await runLkInProcess(['whoami', '--json'], { env });
    expect(warned.stderr).toMatch(/readable by others.*chmod 600/);
  });

  it('LK_API_KEY_FILE supplies the key, and auth status says where it came from, masked', async () => {
    const home = tempHome();
    mkdirSync(home.root, { recursive: true });
    const keyFile = join(home.root, 'key');
    writeFileSync(keyFile, `${bed.sandbox.key('full')}\n`, { mode: 0o600 });
    const status = await runLkInProcess(['auth', 'status'], {
      env: { LK_BASE_URL: bed.sandbox.url, LK_API_KEY_FILE: keyFile, LK_CONFIG_DIR: home.configDir, LK_CACHE_DIR: home.cacheDir },
    });
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(keyFile);
    expect(status.stdout).toContain(bed.sandbox.key('full').slice(0, 6));
    expect(status.stdout).not.toContain(bed.sandbox.key('full'));
  });
});

describe('the key is never shown', () => {
  it('not in --verbose request logs, LK_DEBUG traces, auth status or errors', async () => {
    const key = bed.sandbox.key('full');
    const runs = await Promise.all([
      bed.lk(['--verbose', 'library', '--limit', '2']),
      bed.lk(['library', 'show', 'nope404'], { env: { LK_DEBUG: '1' } }),
      bed.lk(['auth', 'status']),
      bed.lk(['auth', 'status', '--json']),
      bed.lk(['whoami'], { key: 'revoked', env: { LK_DEBUG: '1' } }),
    ]);
    expect(runs[0]!.stderr).toMatch(/GET \/v1\/library.*200/);
    expect(runs[1]!.code).toBe(6);
    expect(runs[4]!.code).toBe(3);
    for (const run of runs) expect(run.stdout + run.stderr).not.toContain(key);
    const revoked = bed.sandbox.key('revoked');
    expect(runs[4]!.stdout + runs[4]!.stderr).not.toContain(revoked);
  });

  it('a malformed key in the environment is reported masked', async () => {
    const bad = `lk_${'Z'.repeat(48)}`;
    const result = await bed.lk(['whoami'], { env: { LK_API_KEY: bad } });
    expect(result.code).toBe(3);
    expect(result.stderr).not.toContain(bad);
  });
});

describe('transport', () => {
  it('--base-url http://example.org is refused without --allow-http, before any connection', async () => {
    const run = await bed.lk(['--base-url', 'http://example.org', 'whoami']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('plain http');
    const login = await runLkInProcess(['auth', 'login', '--base-url', 'http://example.org', '--with-key'], {
      env: { LK_CONFIG_DIR: tempHome().configDir },
      input: `${FAKE_KEY}\n`,
    });
    expect(login.code).toBe(2);
  });

  it.each([
    ['credentials', 'https://me:pw@example.org'],
    ['a query', 'https://example.org/?x=1'],
    ['a fragment', 'https://example.org/#top'],
    ['another scheme', 'file:///etc/passwd'],
  ])('a base URL with %s is refused', async (_what, url) => {
    expect((await bed.lk(['--base-url', url, 'whoami'])).code).toBe(2);
  });

  it('a redirect to another origin never carries the key there, and the error names where it pointed', async () => {
    const elsewhere = await startFakeApi((_req, res) => sendJson(res, 200, { account: { username: 'thief' } }));
    const redirecting = await startFakeApi((req, res) => {
      res.writeHead(302, { location: `${elsewhere.url}${req.url}` });
      res.end();
    });
    try {
      const run = await runLkInProcess(['whoami', '--json'], { env: fakeEnv(redirecting) });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`${elsewhere.url}/v1/me`);
      expect(elsewhere.requests).toHaveLength(0);
      expect(redirecting.requests[0]!.headers.authorization).toBe(`Bearer ${FAKE_KEY}`);
    } finally {
      await Promise.all([elsewhere.close(), redirecting.close()]);
    }
  });

  it('an http→https redirect suggests the https base URL', async () => {
    const api = await startFakeApi((req, res) => {
      res.writeHead(301, { location: `https://127.0.0.1:9${req.url}` });
      res.end();
    });
    try {
      const run = await runLkInProcess(['whoami'], { env: fakeEnv(api) });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('--base-url https://127.0.0.1:9');
    } finally {
      await api.close();
    }
  });

  it('a path prefix in the base URL (a reverse proxy) is kept', async () => {
    const api = await startFakeApi((_req, res) => sendJson(res, 200, { account: { username: 'proxied' } }));
    try {
      const run = await runLkInProcess(['whoami', '--json'], { env: { ...fakeEnv(api), LK_BASE_URL: `${api.url}/tracker/` } });
      expect(run.code).toBe(0);
      expect(api.requests[0]!.path).toBe('/tracker/v1/me');
    } finally {
      await api.close();
    }
  });
});

describe('whatever the server sends', () => {
  const hostileTitle = 'Evil\u001b]0;pwned\u0007\u001b[2J title\u009b\r\b';
  const entry = { id: 'e1', status: 'WATCHING', phase: 'IN_PROGRESS', work: { title: hostileTitle, type: 'series' } };
  const formula = { id: 'e2', status: 'PLANNED', phase: 'PLANNED', rating: -2, work: { title: '=HYPERLINK("http://evil.example","click")' } };
  // A field name is server text too.
  const hostileKeyed = { id: 'e1', [`x${hostileTitle}`]: 'value', work: { title: 'Plain' } };
  let api: FakeApi;

  beforeAll(async () => {
    api = await startFakeApi((req, res) => {
      if (req.url?.startsWith('/v1/library/e1')) sendJson(res, 200, hostileKeyed);
      else if (req.url?.startsWith('/v1/library/bad'))
        sendJson(res, 400, { code: 'request.invalid', message: 'no \u001b[2J\u001b]0;x\u0007 thanks' });
      else sendJson(res, 200, envelope([entry, formula]));
    });
  });

  afterAll(async () => {
    await api.close();
  });

  it.each([
    ['--format', 'table'],
    ['--format', 'tsv'],
    ['--format', 'csv'],
  ])('a title with escape sequences prints no ESC byte in %s %s', async (...args) => {
    const run = await runLkInProcess(['library', ...args], { env: { ...fakeEnv(api), COLUMNS: '100' } });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Evil');
    if (args[1] !== 'csv') expect(run.stdout).not.toMatch(/[\u001b\u0007\u009b\b]/);
  });

  it.each([[], ['--format', 'table'], ['--format', 'tsv']])('a field name with escape sequences prints no ESC byte in `show` %s', async (...args) => {
    const run = await runLkInProcess(['library', 'show', 'e1', ...args], { env: { ...fakeEnv(api), COLUMNS: '100' } });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('value');
    expect(run.stdout).not.toMatch(/[\u001b\u0007\u009b\b]/);
  });

  it('the plain pipe output defuses them too, while json keeps them escaped', async () => {
    const plain = await runLkInProcess(['library'], { env: fakeEnv(api) });
    expect(plain.stdout).not.toContain('\u001b');
    const json = await runLkInProcess(['library', '--json'], { env: fakeEnv(api) });
    expect(json.stdout).not.toContain('\u001b');
    expect((JSON.parse(json.stdout) as Array<{ work: { title: string } }>)[0]!.work.title).toBe(hostileTitle);
  });

  it('an error message from the server cannot rewrite the terminal either', async () => {
    const run = await runLkInProcess(['library', 'show', 'bad'], { env: fakeEnv(api) });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('request.invalid');
    expect(run.stderr).not.toContain('\u001b');
  });

  it('--csv-safe guards =HYPERLINK(…) and keeps it exact without', async () => {
    const safe = parse((await runLkInProcess(['library', '--csv', '--csv-safe'], { env: fakeEnv(api) })).stdout, { columns: true }) as Array<
      Record<string, string>
    >;
    expect(safe[1]!['work.title']).toBe('\'=HYPERLINK("http://evil.example","click")');
    expect(safe[1]!.rating).toBe('-2'); // a number is not a formula
    const exact = parse((await runLkInProcess(['library', '--csv'], { env: fakeEnv(api) })).stdout, { columns: true }) as Array<
      Record<string, string>
    >;
    expect(exact[1]!['work.title']).toBe('=HYPERLINK("http://evil.example","click")');
  });

  it('config csv-safe true guards formulas with no flag given', async () => {
    const env = fakeEnv(api);
    expect((await runLkInProcess(['config', 'set', 'csv-safe', 'true'], { env })).code).toBe(0);
    const rows = parse((await runLkInProcess(['library', '--csv'], { env })).stdout, { columns: true }) as Array<Record<string, string>>;
    expect(rows[1]!['work.title']).toBe('\'=HYPERLINK("http://evil.example","click")');
  });

  it('a 2 MiB body of nested arrays ends cleanly: JSON says it is too deep (exit 1), a table and csv show it, never a stack trace', async () => {
    const depth = 1024 * 1024;
    const body = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const nested = await startFakeApi((_req, res) => sendJson(res, 200, body));
    try {
      const json = await runLkInProcess(['whoami', '--format', 'json'], { env: fakeEnv(nested) });
      // A pipe gets compact JSON: Node 26 writes a value this deep whole, exactly; older Nodes stop at their stack.
      if (json.code === 0) expect(json).toMatchObject({ stdout: `${body}\n`, stderr: '' });
      else expect(json).toMatchObject({ code: 1, stdout: '', stderr: 'lk: the response is nested too deeply to show\n' });
      for (const format of ['table', 'csv']) {
        const run = await runLkInProcess(['whoami', '--format', format], { env: fakeEnv(nested) });
        expect(run.code).toBe(0);
        expect(run.stderr).toBe('');
        expect(run.stdout).not.toBe('');
      }
    } finally {
      await nested.close();
    }
  });

  it('a body over the size bound ends in exit 1 with a clear message', async () => {
    const big = await startFakeApi((_req, res) => sendJson(res, 200, { padding: 'x'.repeat(64 * 1024) }));
    try {
      const run = await runLkInProcess(['whoami', '--json'], { env: { ...fakeEnv(big), LK_MAX_BODY: '16KiB' } });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('larger than 16 KiB');
    } finally {
      await big.close();
    }
  });

  it('an HTML page answered with 200 is a clear error, not a crash', async () => {
    const html = await startFakeApi((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Sign in</title>');
    });
    try {
      const run = await runLkInProcess(['whoami'], { env: fakeEnv(html) });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('is not JSON (text/html)');
    } finally {
      await html.close();
    }
  });
});
