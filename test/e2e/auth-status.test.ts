import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sendJson, startFakeApi, type FakeApi } from './fake-api.js';
import { runLkInProcess, startTestBed, tempHome, type RunOptions, type TestBed } from './harness.js';

/** Runs lk as if both stdout and stderr were a terminal (see the fixture). */
const ON_A_TERMINAL = { tty: {} };
const FAKE_KEY = `lk_${'Q'.repeat(43)}abc123`;
const ESC = '\u001b';

let bed: TestBed;

beforeAll(async () => {
  bed = await startTestBed({ entries: 5, rateLimit: 0 });
});

afterAll(async () => {
  await bed.sandbox.close();
});

interface StatusReport {
  profile: string;
  baseUrl: string;
  baseUrlSource: string;
  keySource: string;
  expiresAt?: unknown;
}

/** Private config and cache folders, and no LK_* variable but those given. */
function isolated(env: Record<string, string | undefined> = {}) {
  const home = tempHome();
  const base = { LK_BASE_URL: undefined, LK_API_KEY: undefined, LK_PROFILE: undefined, LK_CONFIG_DIR: home.configDir, LK_CACHE_DIR: home.cacheDir };
  const run = (args: string[], options: Parameters<typeof runLkInProcess>[1] = {}) =>
    runLkInProcess(args, { ...options, env: { ...base, ...env, ...options.env } });
  const status = async (args: string[] = [], options: RunOptions = {}): Promise<StatusReport> => {
    const result = await run(['auth', 'status', '--json', ...args], options);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    return JSON.parse(result.stdout) as StatusReport;
  };
  const login = async (args: string[]) => {
    const result = await run(['auth', 'login', '--base-url', bed.sandbox.url, '--with-key', ...args], { input: `${bed.sandbox.key('full')}\n` });
    expect(result.code).toBe(0);
  };
  return { home, run, status, login };
}

describe('auth status: where the base URL comes from', () => {
  it('LK_BASE_URL alone is reported as LK_BASE_URL, not as a flag', async () => {
    const { status } = isolated({ LK_BASE_URL: bed.sandbox.url, LK_API_KEY: bed.sandbox.key('full') });
    const report = await status();
    expect(report.baseUrlSource).toBe('LK_BASE_URL');
    expect(report.baseUrl).toBe(bed.sandbox.url);
  });

  it('--base-url is reported as the flag, and wins over LK_BASE_URL', async () => {
    const { status } = isolated({ LK_API_KEY: bed.sandbox.key('full') });
    expect((await status(['--base-url', bed.sandbox.url])).baseUrlSource).toBe('flag');
    const overEnv = await status(['--base-url', bed.sandbox.url], { env: { LK_BASE_URL: 'https://not-this-one.example' } });
    expect(overEnv.baseUrlSource).toBe('flag');
    expect(overEnv.baseUrl).toBe(bed.sandbox.url);
  });

  it('a base URL stored in the profile is reported as the profile, and LK_BASE_URL wins over it', async () => {
    const { status, login } = isolated();
    await login([]);
    const stored = await status();
    expect(stored.baseUrlSource).toBe('profile');
    expect(stored.keySource).toBe('config');
    expect((await status([], { env: { LK_BASE_URL: `${bed.sandbox.url}/` } })).baseUrlSource).toBe('LK_BASE_URL');
  });

  it('an `lk config` default comes last: after the profile', async () => {
    const { run, status, login } = isolated({ LK_API_KEY: bed.sandbox.key('full') });
    expect((await run(['config', 'set', 'base-url', bed.sandbox.url])).code).toBe(0);
    expect((await status()).baseUrlSource).toBe('config');
    await login([]);
    expect((await status()).baseUrlSource).toBe('profile');
  });

  it('the table names the origin: the variable, the flag, or the config file for a profile', async () => {
    const { home, run, login } = isolated();
    await login([]);
    const fromProfile = await run(['auth', 'status', '--format', 'table']);
    expect(fromProfile.stdout).toMatch(new RegExp(`^Instance +${bed.sandbox.url} \\(from ${home.configDir}/config\\.json\\)$`, 'm'));
    const fromEnv = await run(['auth', 'status', '--format', 'table'], { env: { LK_BASE_URL: bed.sandbox.url } });
    expect(fromEnv.stdout).toMatch(/^Instance +\S+ \(from LK_BASE_URL\)$/m);
    const fromFlag = await run(['auth', 'status', '--format', 'table', '--base-url', bed.sandbox.url], { env: { LK_BASE_URL: bed.sandbox.url } });
    expect(fromFlag.stdout).toMatch(/^Instance +\S+ \(from flag\)$/m);
  });
});

describe('LK_PROFILE', () => {
  it('picks the profile when no flag is given; --profile wins over it', async () => {
    const { status, login } = isolated();
    await login(['--profile', 'work']);
    await login(['--profile', 'home']);
    expect((await status([], { env: { LK_PROFILE: 'work' } })).profile).toBe('work');
    expect((await status(['--profile', 'home'], { env: { LK_PROFILE: 'work' } })).profile).toBe('home');
  });
});

describe('auth status on a terminal', () => {
  it('keeps its colours: the "(from …)" note is dim, not a mangled escape sequence', async () => {
    const result = await bed.lk(['auth', 'status'], ON_A_TERMINAL);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`${ESC}[2m(from LK_BASE_URL)${ESC}[22m`);
    expect(result.stdout).not.toContain('\uFFFD');
  });

  it('still defuses escape sequences that come from the server, around the colours it adds', async () => {
    const api = await startFakeApi((_req, res) =>
      sendJson(res, 200, {
        account: { username: `mallory${ESC}]0;owned\u0007` },
        key: { scopes: [`library:read${ESC}[2J`], expiresAt: null },
        rateLimit: { limit: 60, remaining: 59 },
      }),
    );
    try {
      const { run } = isolated({ LK_BASE_URL: api.url, LK_API_KEY: FAKE_KEY });
      const result = await run(['auth', 'status'], ON_A_TERMINAL);
      expect(result.code).toBe(0);
      const shown = result.stdout.replace(/\u001b\[\d+m/g, ''); // lk's own colours
      expect(shown).not.toContain(ESC);
      expect(shown).toMatch(/^Account +mallory\uFFFD\]0;owned\uFFFD$/m);
      expect(shown).toMatch(/^Scopes +library:read\uFFFD\[2J$/m);
      expect(shown).toMatch(/^Expires +never$/m);
    } finally {
      await api.close();
    }
  });
});

describe('fields GET /v1/me may leave out', () => {
  let api: FakeApi;
  let body: unknown;
  beforeAll(async () => {
    api = await startFakeApi((_req, res) => sendJson(res, 200, body));
  });
  afterAll(async () => {
    await api.close();
  });
  const run = (args: string[], options: RunOptions = {}) => isolated({ LK_BASE_URL: api.url, LK_API_KEY: FAKE_KEY }).run(args, options);

  it('auth status says "never" only when the server says expiresAt: null', async () => {
    body = { account: { username: 'ann' }, key: { scopes: ['library:read'], expiresAt: null } };
    const result = await run(['auth', 'status', '--format', 'table']);
    expect(result.stdout).toMatch(/^Expires +never$/m);
    expect((JSON.parse((await run(['auth', 'status', '--json'])).stdout) as StatusReport).expiresAt).toBeNull();
  });

  it('auth status without an expiry from the server says it is unknown; --json keeps its fixed keys (expiry: unknown)', async () => {
    body = { account: { username: 'ann' }, key: { scopes: ['library:read'] } };
    const result = await run(['auth', 'status', '--format', 'table']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Expires +unknown/m);
    expect(result.stdout).not.toContain('never');
    const json = JSON.parse((await run(['auth', 'status', '--json'])).stdout) as StatusReport;
    expect(json).toMatchObject({ expiresAt: null, expiry: 'unknown' });
  });

  it('auth status shows an expiry date the server sends', async () => {
    body = { account: { username: 'ann' }, key: { expiresAt: '2099-01-31T00:00:00.000Z' } };
    expect((await run(['auth', 'status', '--format', 'table'])).stdout).toMatch(/^Expires +2099-01-31T00:00:00\.000Z$/m);
  });

  it('whoami against an empty body says so on a terminal, and exits 0', async () => {
    body = {};
    const result = await run(['whoami'], ON_A_TERMINAL);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/no account, key or rate-limit information/);
  });

  it('whoami --json against an empty body prints exactly {} and nothing on stderr', async () => {
    body = {};
    for (const options of [{}, ON_A_TERMINAL]) {
      const result = await run(['whoami', '--json'], options);
      expect(result.code).toBe(0);
      // On a terminal the JSON is coloured (SGR codes only); the same object either way.
      expect(JSON.parse(result.stdout.replace(/\u001b\[[0-9;]*m/g, ''))).toEqual({});
      expect(result.stderr).toBe('');
    }
  });

  it('whoami -q against an empty body stays quiet', async () => {
    body = {};
    const result = await run(['whoami', '-q'], ON_A_TERMINAL);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
  });
});

describe('auth status with many profiles', () => {
  const REPORT_KEYS = [
    'profile',
    'active',
    'baseUrl',
    'baseUrlSource',
    'account',
    'key',
    'keySource',
    'keyOrigin',
    'scopes',
    'expiresAt',
    'expiry',
    'expiresInDays',
    'rateLimit',
    'status',
    'error',
  ].sort();

  it('lists every stored profile, the active one first; --json has the same fixed keys for each', async () => {
    const { run, login } = isolated();
    await login(['--profile', 'work']);
    await login(['--profile', 'home']);
    const table = await run(['auth', 'status'], { env: { LK_PROFILE: 'work' } });
    expect(table.code).toBe(0);
    expect(table.stdout.match(/^Profile +(\S+)/gm)).toEqual(['Profile    work', 'Profile    home']);
    const result = await run(['auth', 'status', '--json'], { env: { LK_PROFILE: 'work' } });
    const json = JSON.parse(result.stdout) as { profile: string; profiles: Array<Record<string, unknown>> };
    expect(json.profile).toBe('work');
    expect(json.profiles.map((report) => [report.profile, report.active, report.status])).toEqual([
      ['work', true, 'ok'],
      ['home', false, 'ok'],
    ]);
    for (const report of json.profiles) {
      expect(Object.keys(report).sort()).toEqual(REPORT_KEYS);
      expect(report.key).toMatch(/^lk_\w{3}…\w{4}$/);
    }
    expect(
      Object.keys(json)
        .filter((key) => key !== 'profiles')
        .sort(),
    ).toEqual(REPORT_KEYS);
  });

  it('--profile NAME shows only that profile', async () => {
    const { run, login } = isolated();
    await login(['--profile', 'work']);
    await login(['--profile', 'home']);
    const json = JSON.parse((await run(['auth', 'status', '--json', '--profile', 'home'])).stdout) as { profiles: unknown[] };
    expect(json.profiles).toHaveLength(1);
  });

  it('a refused key still shows the profile, instance and key source, then exits 3', async () => {
    const { run, login } = isolated();
    await login([]);
    const result = await run(['auth', 'status'], { env: { LK_API_KEY: bed.sandbox.key('revoked') } });
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(/^Profile +default/m);
    expect(result.stdout).toMatch(new RegExp(`^Instance +${bed.sandbox.url.replace(/[.]/g, '\\.')}`, 'm'));
    expect(result.stdout).toMatch(/^Key +lk_\w{3}…\w{4} \(from LK_API_KEY\)$/m);
    expect(result.stdout).toMatch(/^Status +refused/m);
    // The hint names what overrides the stored login, not `lk auth login`, which would change nothing.
    expect(result.stderr).toMatch(/^lk: the key of profile "default" was refused/m);
    expect(result.stderr).toMatch(/LK_API_KEY is set and overrides the stored login/);
    expect(result.stderr).not.toMatch(/Log in again/);
  });

  it('a refused stored key: the hint says to log in again', async () => {
    const { run } = isolated({ LK_BASE_URL: bed.sandbox.url });
    const keyFile = join(tempHome().root, 'key');
    mkdirSync(dirname(keyFile), { recursive: true });
    writeFileSync(keyFile, bed.sandbox.key('revoked'));
    const result = await run(['auth', 'status', '--json'], { env: { LK_API_KEY_FILE: keyFile } });
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'refused', keySource: 'LK_API_KEY_FILE', keyOrigin: keyFile });
    expect(result.stderr).toMatch(/LK_API_KEY_FILE is set and overrides/);
  });

  it('with nothing configured: exit 3 (not 2), one line saying how to log in', async () => {
    const { run } = isolated();
    const result = await run(['auth', 'status']);
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^lk: not logged in/);
  });

  it('an expiry under 14 days away is flagged, in the table and on stderr', async () => {
    const api = await startFakeApi((_req, res) =>
      sendJson(res, 200, { account: { username: 'ann' }, key: { scopes: [], expiresAt: new Date(Date.now() + 5.5 * 86_400_000).toISOString() } }),
    );
    try {
      const { run } = isolated({ LK_BASE_URL: api.url, LK_API_KEY: FAKE_KEY });
      const result = await run(['auth', 'status']);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^Expires +\S+ \(in 5 days\)$/m);
      expect(result.stderr).toMatch(/^lk: warning: the key of profile "default" expires in 5 days/m);
      expect(JSON.parse((await run(['auth', 'status', '--json'])).stdout)).toMatchObject({ expiry: 'soon', expiresInDays: 5 });
    } finally {
      await api.close();
    }
  });
});

describe('lk auth switch', () => {
  it('sets the default profile; LK_PROFILE and --profile still win', async () => {
    const { run, login, status } = isolated();
    await login(['--profile', 'work']);
    await login(['--profile', 'home']);
    expect((await run(['auth', 'switch', 'home'])).code).toBe(0);
    expect((await status()).profile).toBe('home');
    expect((await status([], { env: { LK_PROFILE: 'work' } })).profile).toBe('work');
    expect((await status(['--profile', 'work'])).profile).toBe('work');
    // Commands use it too.
    expect((await run(['whoami', '--json'])).code).toBe(0);
  });

  it('an unknown profile is a usage error (exit 2) naming the stored ones', async () => {
    const { run, login } = isolated();
    await login(['--profile', 'work']);
    const result = await run(['auth', 'switch', 'nope']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^lk: no profile "nope"\nStored profiles: work\.$/m);
  });
});

describe('lk auth token', () => {
  it('prints the key for a script (a pipe), exactly, one line', async () => {
    const result = await bed.lk(['auth', 'token']);
    expect(result).toMatchObject({ code: 0, stdout: `${bed.sandbox.key('full')}\n`, stderr: '' });
  });

  it('refuses a terminal (exit 2, no key shown) unless --show', async () => {
    const refused = await bed.lk(['auth', 'token'], ON_A_TERMINAL);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).not.toContain(bed.sandbox.key('full'));
    const shown = await bed.lk(['auth', 'token', '--show'], ON_A_TERMINAL);
    expect(shown).toMatchObject({ code: 0, stdout: `${bed.sandbox.key('full')}\n` });
  });

  it('prints the stored key of the profile, and exits 3 when there is none', async () => {
    const { run, login } = isolated();
    await login(['--profile', 'work']);
    expect((await run(['auth', 'token', '--profile', 'work'])).stdout).toBe(`${bed.sandbox.key('full')}\n`);
    expect((await run(['auth', 'token', '--profile', 'other'])).code).toBe(3);
  });
});
