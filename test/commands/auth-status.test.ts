import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authStatus } from '../../src/commands/auth-status.js';
import { updateStoredConfig } from '../../src/config/store.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { AuthError } from '../../src/util/errors.js';
import { fakeContext, fakeHome, type FakeRunOptions } from './fake-context.js';

// Issue 35: lk auth status returns one report per profile; here it is gathered through a Context made from a fake
// factory (gh's runF), with a config file of the test's own, no program and no process.

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});

afterAll(async () => {
  await sandbox.close();
});

/** A run over a config holding `profiles` (name → sandbox key name), `home` the default. */
async function statusOf(profiles: Record<string, string>, more: Omit<FakeRunOptions, 'home'> = {}) {
  const home = fakeHome();
  await updateStoredConfig(home.configDir, (config) => {
    config.defaultProfile = 'home';
    config.profiles = Object.fromEntries(Object.entries(profiles).map(([name, key]) => [name, { baseUrl: sandbox.url, key: sandbox.key(key) }]));
  });
  const run = fakeContext({ ...more, home });
  const status = await authStatus(run.ctx).finally(() => run.ctx.close());
  return { status, stderr: run.stderr };
}

describe('lk auth status through a fake context', () => {
  it('two profiles, one refused: both reported (the active one first), and the run ends in exit 3 naming the refused one', async () => {
    const { status } = await statusOf({ home: 'full', work: 'revoked' });
    const [home, work] = status.reports;
    expect(status.reports).toHaveLength(2);
    expect(home).toMatchObject({ profile: 'home', active: true, status: 'ok', account: 'demo', baseUrl: sandbox.url, expiry: 'never', error: null });
    expect(home!.scopes).toEqual(expect.arrayContaining(['library:read']));
    expect(home!.key).not.toBe(sandbox.key('full'));
    expect(sandbox.key('full').startsWith(home!.key!.split('…')[0]!)).toBe(true);
    expect(work).toMatchObject({ profile: 'work', active: false, status: 'refused', baseUrl: sandbox.url, scopes: null });
    expect(work!.error).toMatch(/revoked/);
    expect(status.failure).toBeInstanceOf(AuthError);
    expect(status.failure).toMatchObject({ message: 'the key of profile "work" was refused', exitCode: 3 });
    expect(status.failure!.hint).toContain('lk auth login --profile work');
  });

  it('--profile reports that profile alone', async () => {
    const { status } = await statusOf({ home: 'full', work: 'revoked' }, { flags: { profile: 'work' } });
    expect(status.reports.map((report) => [report.profile, report.active, report.status])).toEqual([['work', true, 'refused']]);
  });

  it('LK_API_KEY overrides the active profile only, and its refusal says to fix the variable, not to log in', async () => {
    const { status } = await statusOf({ home: 'full', work: 'full' }, { env: { LK_API_KEY: sandbox.key('expired') } });
    const [home, work] = status.reports;
    expect(home).toMatchObject({ profile: 'home', keySource: 'LK_API_KEY', status: 'refused' });
    expect(work).toMatchObject({ profile: 'work', status: 'ok' });
    expect(work!.keySource).not.toBe('LK_API_KEY');
    expect(status.failure!.hint).toMatch(/^LK_API_KEY is set and overrides the stored login of profile "home"/);
  });

  it('a key expiring within two weeks of the fake clock’s today: "soon", the days left, and one warning on stderr', async () => {
    const inEightyDays = Date.now() + 80 * 86_400_000;
    const { status, stderr } = await statusOf({ home: 'library' }, { now: () => inEightyDays });
    expect(status.reports[0]).toMatchObject({ status: 'ok', expiry: 'soon', expiresInDays: expect.any(Number) as unknown });
    expect(status.reports[0]!.expiresInDays).toBeGreaterThanOrEqual(9);
    expect(status.reports[0]!.expiresInDays).toBeLessThanOrEqual(10);
    expect(status.failure).toBeUndefined();
    expect(stderr()).toMatch(
      /^lk: warning: the key of profile "home" expires in (9|10) days \(.+\); create a new one in the web app, then run `lk auth login`\n$/,
    );
  });

  it('nothing configured at all: not a report but "not logged in" (exit 3) with how to log in', async () => {
    const { ctx, stderr } = fakeContext();
    await expect(authStatus(ctx)).rejects.toMatchObject({ exitCode: 3, message: 'not logged in (profile "default")' });
    expect(stderr()).toBe('');
  });
});
