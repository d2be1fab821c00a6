import { chmodSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeCheck, sqliteCheck, type Check } from '../../src/commands/doctor.js';
import { startTestBed, tempHome, type RunResult, type TestBed } from './harness.js';
import { makeTestPki, type TestPki } from './pki.js';
import { startTinyproxy, type TestProxy } from './tinyproxy.js';
import { describeWith } from '../support/outside-tools.js';
import { freePort } from '../support/ports.js';

interface Report {
  ok: boolean;
  checks: Check[];
}

function report(result: RunResult): Report {
  return JSON.parse(result.stdout) as Report;
}

function check(result: RunResult, id: string): Check {
  const found = report(result).checks.find((item) => item.id === id);
  if (!found) throw new Error(`no ${id} check in ${result.stdout}`);
  return found;
}

describe('lk doctor: Node', () => {
  it.each([
    ['18.19.0', 'fail'],
    ['20.18.0', 'fail'],
    ['20.18.1', 'warn'],
    ['20.20.2', 'warn'],
    ['22.13.0', 'ok'],
    ['24.1.0', 'ok'],
    ['26.0.0', 'ok'],
  ])('Node %s: %s', (version, status) => {
    expect(nodeCheck(version).status).toBe(status);
  });

  it.each([
    ['20.20.2', 'warn'],
    ['22.12.0', 'warn'],
    ['22.13.0', 'ok'],
    ['24.1.0', 'ok'],
  ])('node:sqlite on Node %s: %s', async (version, status) => {
    expect((await sqliteCheck(version)).status).toBe(status);
  });
});

describe('lk doctor against the sandbox', () => {
  let bed: TestBed;
  let dataDir: string;
  beforeAll(async () => {
    bed = await startTestBed({ entries: 10, exportIntervalSeconds: 0 });
    dataDir = join(bed.home.root, 'data');
  });
  afterAll(() => bed.sandbox.close());
  const doctor = (options: Parameters<TestBed['lk']>[1] = {}) =>
    bed.lk(['doctor', '--json'], { ...options, env: { LK_DATA_DIR: dataDir, ...options.env } });

  it('all well: every check present with fixed keys, ok, exit 0', async () => {
    const result = await doctor();
    expect(result.code).toBe(0);
    const { ok, checks } = report(result);
    expect(ok).toBe(true);
    expect(checks.map((item) => item.id)).toEqual([
      'node',
      'sqlite',
      'config',
      'cache',
      'key',
      'proxy',
      'instance',
      'tls',
      'clock',
      'budget',
      'export',
      'mirror',
    ]);
    for (const item of checks) expect(Object.keys(item)).toEqual(['id', 'status', 'message', 'fix']);
    const notOk = checks.filter((item) => item.status !== 'ok').map((item) => item.id);
    expect(notOk.every((id) => id === 'node' || id === 'sqlite')).toBe(true);
    expect(check(result, 'key').message).toMatch(/^profile "default", key lk_\w{3}…\w{4} from LK_API_KEY$/);
    expect(check(result, 'tls').message).toMatch(/plain http on loopback/);
    expect(check(result, 'proxy').message).toBe('direct (no HTTPS_PROXY / HTTP_PROXY)');
    expect(check(result, 'mirror').message).toMatch(/^no mirror \(.*default\.db\); lk sync creates one$/);
    expect(check(result, 'export').message).toMatch(/^no export of demo cached/);
    expect(result.stdout).not.toContain(bed.sandbox.key('full'));
  });

  it('the screen: one line per check, ok / warn / fail, the fix under it', async () => {
    const result = await bed.lk(['doctor'], { env: { LK_DATA_DIR: dataDir } });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ok {4}instance {2}http:\/\/127\.0\.0\.1:\d+ answers \(GET \/v1\/me → 200\)$/m);
    expect(result.stdout.split('\n').filter((line) => /^(ok|warn|fail) /.test(line))).toHaveLength(12);
  });

  it('not logged in: key fails with the fix, exit 1, and the instance is still probed', async () => {
    const result = await doctor({ key: null });
    expect(result.code).toBe(1);
    expect(report(result).ok).toBe(false);
    expect(check(result, 'key')).toMatchObject({ status: 'fail', message: 'not logged in (profile "default")' });
    expect(check(result, 'key').fix).toMatch(/lk auth login/);
    expect(check(result, 'instance').status).toBe('ok');
  });

  it('a refused key: auth fails', async () => {
    const result = await doctor({ key: 'revoked' });
    expect(result.code).toBe(1);
    expect(check(result, 'auth')).toMatchObject({ status: 'fail', message: expect.stringMatching(/key was refused/) });
  });

  it('no instance configured: instance fails', async () => {
    const result = await doctor({ env: { LK_BASE_URL: undefined } });
    expect(result.code).toBe(1);
    expect(check(result, 'instance')).toMatchObject({ status: 'fail', message: 'no instance configured' });
  });

  it('nothing listening: instance fails naming the host', async () => {
    const port = await freePort();
    const result = await doctor({ env: { LK_BASE_URL: `http://127.0.0.1:${port}` } });
    expect(result.code).toBe(1);
    expect(check(result, 'instance')).toMatchObject({ status: 'fail', message: `cannot connect to 127.0.0.1:${port}: connection refused` });
  });

  it('a config folder and file open to others: warnings with the chmod to run', async () => {
    const home = tempHome();
    mkdirSync(home.configDir, { mode: 0o755 });
    chmodSync(home.configDir, 0o755);
    const result = await doctor({ env: { LK_CONFIG_DIR: home.configDir } });
    expect(check(result, 'config')).toMatchObject({ status: 'warn', fix: `chmod 700 ${home.configDir}` });
    chmodSync(home.configDir, 0o700);
    writeFileSync(join(home.configDir, 'config.json'), '{}', { mode: 0o644 });
    chmodSync(join(home.configDir, 'config.json'), 0o644);
    const file = await doctor({ env: { LK_CONFIG_DIR: home.configDir } });
    expect(check(file, 'config')).toMatchObject({ status: 'warn', fix: `chmod 600 ${join(home.configDir, 'config.json')}` });
    expect(file.code).toBe(0);
  });

  it("a clock ten minutes ahead of the server's: a warning", async () => {
    const result = await doctor({ now: () => Date.now() + 600_000 });
    // The Date header has whole seconds and is stamped before the body goes out: a second or two either way.
    expect(check(result, 'clock')).toMatchObject({
      status: 'warn',
      message: expect.stringMatching(/^this machine's clock is (9m 5[89]s|10m|10m [12]s) ahead of the server's$/),
    });
    expect(result.code).toBe(0);
  });

  it('an export within the hour, then a damaged cache', async () => {
    const exported = await bed.lk(['export', '-o', join(bed.home.root, 'export.json')]);
    expect(exported.code).toBe(0);
    const within = await doctor();
    expect(check(within, 'export')).toMatchObject({ status: 'ok', message: expect.stringMatching(/^last export of demo \d+s ago: within the hour/) });
    const exportsDir = join(bed.home.cacheDir, 'exports');
    const instance = readdirSync(exportsDir)[0]!;
    const meta = join(exportsDir, instance, 'accounts', 'demo', 'meta.json');
    writeFileSync(meta, readFileSync(meta, 'utf8').replace(/"bytes": \d+/, '"bytes": 1'));
    const damaged = await doctor();
    expect(check(damaged, 'export')).toMatchObject({ status: 'warn', message: expect.stringMatching(/damaged/) });
  });

  it('a mirror: its age, and a warning when it is over a week old', async () => {
    mkdirSync(dataDir, { recursive: true });
    const db = join(dataDir, 'default.db');
    writeFileSync(db, '');
    // Seconds, not "0s": the file's age is read off the real clock, and a loaded machine may take one to get there.
    const fresh = check(await doctor(), 'mirror');
    expect(fresh.status).toBe('ok');
    expect(fresh.message.slice(0, db.length)).toBe(db);
    expect(fresh.message.slice(db.length)).toMatch(/^, last written \d+s ago$/);
    const tenDaysAgo = (Date.now() - 10 * 24 * 3600_000) / 1000;
    utimesSync(db, tenDaysAgo, tenDaysAgo);
    expect(check(await doctor(), 'mirror')).toMatchObject({ status: 'warn', fix: 'Run lk sync to bring it up to date.' });
  });

  it('a spent rate-limit budget: a warning saying when it resets', async () => {
    const small = await startTestBed({ rateLimit: 2 });
    try {
      await small.lk(['whoami']);
      const result = await small.lk(['doctor', '--json']);
      expect(check(result, 'budget')).toMatchObject({
        status: 'warn',
        message: expect.stringMatching(/rate limit spent: 0\/2 left, resets in (\d+s|1m)$/),
      });
    } finally {
      await small.sandbox.close();
    }
  });
});

describeWith(['openssl'], 'lk doctor: TLS and proxy', () => {
  let pki: TestPki;
  let https: TestBed;
  beforeAll(async () => {
    pki = makeTestPki();
    https = await startTestBed({ tls: pki.valid });
  });
  afterAll(async () => {
    await https.sandbox.close();
  });

  it('an unknown authority: tls fails with the way out', async () => {
    const result = await https.lk(['doctor', '--json']);
    expect(result.code).toBe(1);
    expect(check(result, 'tls')).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(/does not trust/),
      fix: expect.stringMatching(/--cacert FILE/),
    });
  });

  it('with --cacert: tls ok, naming the CA file', async () => {
    const result = await https.lk(['doctor', '--json', '--cacert', pki.caFile]);
    expect(check(result, 'tls')).toMatchObject({ status: 'ok', message: expect.stringContaining(`with ${pki.caFile} from --cacert`) });
  });

  describeWith(['tinyproxy'], 'through tinyproxy', () => {
    let proxy: TestProxy;
    beforeAll(async () => {
      proxy = await startTinyproxy();
    });
    afterAll(() => proxy.stop());

    it('through a proxy: which one, masked', async () => {
      const url = `http://user:hunter2@127.0.0.1:${proxy.port}`;
      const result = await https.lk(['doctor', '--json', '--cacert', pki.caFile], { env: { HTTPS_PROXY: url } });
      expect(check(result, 'proxy')).toMatchObject({
        status: 'ok',
        message: `through http://***:***@127.0.0.1:${proxy.port} (a CONNECT tunnel: the key stays inside TLS)`,
      });
      expect(result.stdout).not.toContain('hunter2');
    });

    it('NO_PROXY matching the instance: direct', async () => {
      const result = await https.lk(['doctor', '--json', '--cacert', pki.caFile], { env: { HTTPS_PROXY: proxy.url, NO_PROXY: '127.0.0.1' } });
      expect(check(result, 'proxy')).toMatchObject({ status: 'ok', message: 'direct (NO_PROXY matches 127.0.0.1)' });
    });

    it('a plain-http instance through a proxy: a warning', async () => {
      const http = await startTestBed();
      try {
        const result = await http.lk(['doctor', '--json'], { env: { HTTP_PROXY: proxy.url } });
        expect(check(result, 'proxy')).toMatchObject({ status: 'warn', fix: 'Use https, or NO_PROXY=127.0.0.1.' });
      } finally {
        await http.sandbox.close();
      }
    });
  });

  it('a proxy that cannot be reached: instance fails naming the proxy', async () => {
    const port = await freePort();
    const result = await https.lk(['doctor', '--json', '--cacert', pki.caFile], { env: { HTTPS_PROXY: `http://127.0.0.1:${port}` } });
    expect(result.code).toBe(1);
    expect(check(result, 'instance')).toMatchObject({
      status: 'fail',
      message: `the proxy http://127.0.0.1:${port} (from HTTPS_PROXY) cannot be reached (connection refused)`,
    });
  });
});
