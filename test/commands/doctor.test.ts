import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatherChecks } from '../../src/commands/doctor.js';
import type { RunFlags } from '../../src/context.js';
import type { Check } from '../../src/output/result.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { freePort } from '../support/ports.js';
import { fakeContext, UNKNOWN_KEY } from './fake-context.js';

// Issue 35: lk doctor's checks are facts a run returns; here they are gathered through a Context made from a fake
// factory (as gh tests a command through runF), with no program, no output and no process.

let sandbox: Sandbox;

beforeAll(async () => {
  // The sandbox on the real clock: a test moves lk's clock alone to make a skew.
  sandbox = await startSandbox({ port: 0 });
});

afterAll(async () => {
  await sandbox.close();
});

interface Gathered {
  check: (id: string) => Check;
  ids: string[];
  stderr: string;
  requests: number;
  dataDir: string;
}

/** Every check of one run, by id; `setUp` prepares its folders first. */
async function doctor(
  env: Record<string, string | undefined>,
  more: { now?: () => number; flags?: RunFlags; setUp?: (home: { dataDir: string }) => void } = {},
): Promise<Gathered> {
  const run = fakeContext({ env, ...(more.now ? { now: more.now } : {}), ...(more.flags ? { flags: more.flags } : {}) });
  more.setUp?.(run.home);
  sandbox.resetCounters();
  const { checks } = await gatherChecks(run.ctx).finally(() => run.ctx.close());
  return {
    check: (id) => {
      const found = checks.find((check) => check.id === id);
      if (!found) throw new Error(`no ${id} check among ${checks.map((check) => check.id).join(', ')}`);
      return found;
    },
    ids: checks.map((check) => check.id),
    stderr: run.stderr(),
    requests: sandbox.counters.requests,
    dataDir: run.home.dataDir,
  };
}

const withKey = (name = 'full') => ({ LK_BASE_URL: sandbox.url, LK_API_KEY: sandbox.key(name) });

describe('lk doctor through a fake context', () => {
  it('no key: the key check fails with how to log in; the instance is still probed, and answers 401', async () => {
    const gathered = await doctor({ LK_BASE_URL: sandbox.url });
    expect(gathered.check('key')).toEqual({
      id: 'key',
      status: 'fail',
      message: 'not logged in (profile "default")',
      fix: expect.stringMatching(/lk auth login/) as unknown,
    });
    // A keyless probe's 401 is the instance answering (it was said to be "rate limited").
    expect(gathered.check('instance')).toMatchObject({ status: 'ok', message: `${sandbox.url} answers (GET /v1/me → 401)` });
    expect(gathered.ids).not.toContain('auth');
    expect(gathered.requests).toBe(1);
  });

  it('a key the instance refuses (401): auth fails with its fix; the key is named masked, never whole', async () => {
    const gathered = await doctor({ LK_BASE_URL: sandbox.url, LK_API_KEY: UNKNOWN_KEY });
    expect(gathered.check('key').status).toBe('ok');
    expect(gathered.check('key').message).toMatch(/^profile "default", key lk_.+….+ from LK_API_KEY$/);
    expect(gathered.check('instance')).toMatchObject({ status: 'ok', message: `${sandbox.url} answers (GET /v1/me → 401)` });
    expect(gathered.check('auth')).toMatchObject({ status: 'fail', fix: expect.stringMatching(/lk auth login/) as unknown });
    expect(JSON.stringify(gathered)).not.toContain(UNKNOWN_KEY);
  });

  it('a revoked key is refused the same way, with the server’s reason', async () => {
    const gathered = await doctor(withKey('revoked'));
    expect(gathered.check('auth')).toMatchObject({ status: 'fail', message: expect.stringMatching(/revoked/) as unknown });
  });

  it('a clock five minutes ahead of the server’s: a warning with how to fix it; in step: ok', async () => {
    const ahead = await doctor(withKey(), { now: () => Date.now() + 5 * 60_000 });
    expect(ahead.check('clock')).toEqual({
      id: 'clock',
      status: 'warn',
      // Whole seconds from the Date header, measured from its middle: 5m, or a second more on a slow answer.
      message: expect.stringMatching(/^this machine's clock is 5m( 1s)? ahead of the server's$/) as unknown,
      fix: expect.stringMatching(/^Synchronise the clock/) as unknown,
    });
    const behind = await doctor(withKey(), { now: () => Date.now() - 5 * 60_000 });
    expect(behind.check('clock')).toMatchObject({
      status: 'warn',
      message: expect.stringMatching(/^this machine's clock is (5m|4m 59s) behind the server's$/) as unknown,
    });
    const inStep = await doctor(withKey());
    expect(inStep.check('clock')).toMatchObject({ status: 'ok', fix: null });
  });

  it('a proxy configured for plain http: a warning (it can read the key), and one it cannot reach fails the instance, both with NO_PROXY as the fix', async () => {
    const proxy = `http://127.0.0.1:${await freePort()}`;
    const gathered = await doctor({ ...withKey(), HTTP_PROXY: proxy });
    expect(gathered.check('proxy')).toEqual({
      id: 'proxy',
      status: 'warn',
      message: `through ${proxy} to plain-http ${new URL(sandbox.url).host}: the proxy can read the key`,
      fix: 'Use https, or NO_PROXY=127.0.0.1.',
    });
    expect(gathered.check('instance')).toMatchObject({ status: 'fail', fix: expect.stringMatching(/NO_PROXY=127\.0\.0\.1/) as unknown });
    expect(gathered.requests).toBe(0);

    const bypassed = await doctor({ ...withKey(), HTTP_PROXY: proxy, NO_PROXY: '127.0.0.1' });
    expect(bypassed.check('proxy')).toMatchObject({ status: 'ok', message: 'direct (NO_PROXY matches 127.0.0.1)' });
    expect(bypassed.check('instance').status).toBe('ok');
  });

  it('an instance on a dead port: instance fails with its fix; no tls line for plain http; the local checks still run', async () => {
    const port = await freePort();
    const gathered = await doctor({ LK_BASE_URL: `http://127.0.0.1:${port}`, LK_API_KEY: sandbox.key('full') });
    expect(gathered.check('instance')).toMatchObject({
      status: 'fail',
      message: `cannot connect to 127.0.0.1:${port}: connection refused`,
      fix: expect.stringMatching(/base URL/) as unknown,
    });
    expect(gathered.ids).not.toContain('tls');
    expect(gathered.ids).toEqual(expect.arrayContaining(['node', 'config', 'cache', 'key', 'mirror']));
    expect(gathered.requests).toBe(0);
  });

  it('the mirror: absent (lk sync creates one), recent, and a week old (run lk sync), read at the fake clock’s time', async () => {
    const now = Date.now();
    const absent = await doctor(withKey(), { now: () => now });
    expect(absent.check('mirror')).toEqual({
      id: 'mirror',
      status: 'ok',
      message: `no mirror (${join(absent.dataDir, 'default.db')}); lk sync creates one`,
      fix: null,
    });

    const writeMirror = (ageMs: number) => (home: { dataDir: string }) => {
      mkdirSync(home.dataDir, { recursive: true });
      const file = join(home.dataDir, 'default.db');
      writeFileSync(file, '');
      utimesSync(file, new Date(now - ageMs), new Date(now - ageMs));
    };
    const recent = await doctor(withKey(), { now: () => now, setUp: writeMirror(2 * 3600_000) });
    expect(recent.check('mirror')).toMatchObject({ status: 'ok', message: `${join(recent.dataDir, 'default.db')}, last written 2h ago` });
    const old = await doctor(withKey(), { now: () => now, setUp: writeMirror(8 * 86_400_000) });
    expect(old.check('mirror')).toMatchObject({ status: 'warn', message: expect.stringMatching(/last written 192h ago$/) as unknown });
    expect(old.check('mirror').fix).toBe('Run lk sync to bring it up to date.');
  });

  it('--profile names the profile the key is read for and the mirror looked for', async () => {
    const gathered = await doctor(withKey(), { flags: { profile: 'work' } });
    expect(gathered.check('key').message).toMatch(/^profile "work", /);
    expect(gathered.check('mirror').message).toContain(join(gathered.dataDir, 'work.db'));
  });

  it('with a key and a reachable instance, every check is there, in order, and nothing waited', async () => {
    const gathered = await doctor(withKey());
    expect(gathered.ids).toEqual(['node', 'sqlite', 'config', 'cache', 'key', 'proxy', 'instance', 'tls', 'clock', 'budget', 'export', 'mirror']);
    expect(gathered.check('budget').message).toMatch(/^\d+\/\d+ requests left this minute/);
    expect(gathered.check('export').message).toBe('no export of demo cached: one is possible now');
    expect(gathered.stderr).toBe('');
  });
});
