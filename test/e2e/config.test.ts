import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBed, tempHome, type RunOptions, type TestBed } from './harness.js';

let bed: TestBed;

beforeAll(async () => {
  bed = await startTestBed({ entries: 10, rateLimit: 0 });
});

afterAll(async () => {
  await bed.sandbox.close();
});

/** Each test gets its own config folder, so that settings never leak between tests. */
function withConfig() {
  const { configDir } = tempHome();
  return {
    configDir,
    lk: (args: string[], options: RunOptions & { key?: string | null } = {}) =>
      bed.lk(args, { ...options, env: { LK_CONFIG_DIR: configDir, ...options.env } }),
  };
}

describe('lk config set/get/unset', () => {
  it('refuses a wrong value naming the allowed ones (exit 2) and stores nothing', async () => {
    const { lk } = withConfig();
    const result = await lk(['config', 'set', 'lang', 'de']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/en, fr, it/);
    expect((await lk(['config', 'get', 'lang'])).stdout).toBe('');
  });

  it('refuses an unknown setting with exit 2, listing the known ones', async () => {
    const result = await withConfig().lk(['config', 'set', 'colour', 'never']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('csv-safe');
  });

  it('get prints what set stored; after unset it prints nothing and exits 0', async () => {
    const { lk } = withConfig();
    expect((await lk(['config', 'set', 'lang', 'fr'])).code).toBe(0);
    expect((await lk(['config', 'get', 'lang'])).stdout).toBe('fr\n');
    expect((await lk(['config', 'unset', 'lang'])).code).toBe(0);
    const after = await lk(['config', 'get', 'lang']);
    expect(after.code).toBe(0);
    expect(after.stdout).toBe('');
  });

  it('format json applies to whoami and listings with no --json given; a format flag still wins', async () => {
    const { lk } = withConfig();
    await lk(['config', 'set', 'format', 'json']);
    const whoami = await lk(['whoami']);
    expect(whoami.code).toBe(0);
    expect((JSON.parse(whoami.stdout) as { account: unknown }).account).toBeDefined();
    const listing = JSON.parse((await lk(['library', '--limit', '3'])).stdout) as unknown[];
    expect(listing).toHaveLength(3);
    const csv = await lk(['library', '--limit', '3', '--csv', '--fields', 'id']);
    expect(csv.stdout.split('\n')[0]).toBe('id');
  });

  it('lang fr is sent with requests for works unless --lang says otherwise', async () => {
    const { lk } = withConfig();
    await lk(['config', 'set', 'lang', 'fr']);
    const verbose = await lk(['library', '--limit', '1', '-v']);
    expect(verbose.stderr).toMatch(/lang=fr/);
    const flagged = await lk(['library', '--limit', '1', '-v', '--lang', 'it']);
    expect(flagged.stderr).toMatch(/lang=it/);
  });
});

describe('base-url precedence: flag > LK_BASE_URL > config', () => {
  // A prefix the sandbox does not serve: a request sent there answers 404 (exit 6), telling which URL was used.
  const wrong = () => `${bed.sandbox.url}/not-the-api`;

  it('the config default is used when nothing else names an instance', async () => {
    const { lk } = withConfig();
    await lk(['config', 'set', 'base-url', wrong()]);
    expect((await lk(['whoami'], { env: { LK_BASE_URL: undefined } })).code).toBe(6);
    await lk(['config', 'set', 'base-url', bed.sandbox.url]);
    expect((await lk(['whoami'], { env: { LK_BASE_URL: undefined } })).code).toBe(0);
  });

  it('LK_BASE_URL beats the config default, and --base-url beats both', async () => {
    const { lk } = withConfig();
    await lk(['config', 'set', 'base-url', wrong()]);
    expect((await lk(['whoami'], { env: { LK_BASE_URL: bed.sandbox.url } })).code).toBe(0);
    expect((await lk(['whoami', '--base-url', bed.sandbox.url], { env: { LK_BASE_URL: wrong() } })).code).toBe(0);
    expect((await lk(['whoami', '--base-url', wrong()], { env: { LK_BASE_URL: bed.sandbox.url } })).code).toBe(6);
  });
});

describe('lk config list', () => {
  it('shows every setting with its value and source, and profiles with masked keys only', async () => {
    const { lk } = withConfig();
    const key = bed.sandbox.key('full');
    const login = await lk(['auth', 'login', '--with-key'], { key: null, input: `${key}\n` });
    expect(login.code).toBe(0);
    await lk(['config', 'set', 'timeout', '12']);
    const json = await lk(['config', 'list', '--json']);
    expect(json.code).toBe(0);
    const listed = JSON.parse(json.stdout) as {
      settings: Record<string, { value: unknown; source: string }>;
      profiles: Array<{ name: string; baseUrl: string; key: string }>;
    };
    expect(listed.settings.timeout).toMatchObject({ value: 12, source: 'config' });
    expect(listed.settings['max-wait']).toMatchObject({ value: 300, source: 'default' });
    expect(Object.keys(listed.settings)).toEqual(expect.arrayContaining(['format', 'lang', 'color', 'base-url', 'max-wait', 'timeout', 'csv-safe']));
    expect(listed.profiles).toEqual([
      expect.objectContaining({ name: 'default', baseUrl: bed.sandbox.url, key: `${key.slice(0, 6)}…${key.slice(-4)}` }),
    ]);
    const table = await lk(['config', 'list', '--format', 'table'], { env: { COLUMNS: '80' } });
    for (const output of [json, table]) expect(output.stdout + output.stderr).not.toContain(key);
    expect(table.stdout).toMatch(/^timeout\s+12\s+config/m);
  });

  it('a hand-edited invalid value is shown as such and can be fixed with config set', async () => {
    const { lk, configDir } = withConfig();
    await lk(['config', 'set', 'lang', 'fr']);
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ defaults: { color: 'purple' } }), { mode: 0o600 });
    expect((await lk(['whoami'])).code).toBe(2);
    const listed = JSON.parse((await lk(['config', 'list', '--json'])).stdout) as { settings: Record<string, { problem?: string }> };
    expect(listed.settings.color!.problem).toMatch(/auto, always, never/);
    expect((await lk(['config', 'set', 'color', 'never'])).code).toBe(0);
    expect((await lk(['whoami'])).code).toBe(0);
  });
});
