import { spawn } from 'node:child_process';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lkShellCommand, outputOf, startTestBed, type TestBed } from './harness.js';
import { tempDir } from '../support/temp-dir.js';
import { describeWith } from '../support/outside-tools.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Runs a shell script inside its own D-Bus session with a real gnome-keyring-daemon (Secret Service), unlocked with a
 * throw-away password, HOME in a temp folder: nothing touches the machine's own keyring.
 */
function inKeyringSession(script: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const home = tempDir('lk-keyring-home-');
  // `lk` on the session's PATH: the built program under this Node, or the single file (LK_TEST_BINARY).
  writeFileSync(join(home, 'lk'), `#!/bin/sh\nexec ${lkShellCommand()} "$@"\n`, { mode: 0o755 });
  const prelude = 'printf %s throwaway | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1\n';
  const child = spawn('dbus-run-session', ['--', 'sh', '-ec', prelude + script], {
    env: { PATH: `${home}:${process.env.PATH}`, HOME: home, LANG: 'C.UTF-8', TZ: 'UTC', NODE: process.execPath, LK_ROOT: ROOT, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return outputOf(child);
}

describe('the key in the system keyring', () => {
  let bed: TestBed;
  beforeAll(async () => {
    bed = await startTestBed();
  });
  afterAll(() => bed.sandbox.close());

  describeWith(['gnome-keyring', 'dbus'], 'with a Secret Service (gnome-keyring-daemon under dbus-run-session)', () => {
    it('with a Secret Service: login stores the key there, the config file holds none, whoami and status work, logout removes it', async () => {
      const env = { LK_CONFIG_DIR: bed.home.configDir, LK_CACHE_DIR: bed.home.cacheDir, KEY: bed.sandbox.key('full'), URL: bed.sandbox.url };
      const result = await inKeyringSession(
        [
          'printf "%s\\n" "$KEY" | lk auth login --with-key --base-url "$URL"',
          'echo "--- config"; cat "$LK_CONFIG_DIR/config.json"; echo',
          'echo "--- whoami"; lk whoami --json',
          'echo "--- status"; lk auth status --json',
          'echo "--- secret-tool"; "$NODE" -e "import(process.argv[1]).then(async (m) => console.log(await new m.AsyncEntry(\'lk\', \'default\').getPassword() === process.env.KEY))" "$LK_ROOT/node_modules/@napi-rs/keyring/index.js"',
          'echo "--- logout"; lk auth logout',
          'echo "--- after"; lk whoami || echo "exit $?"',
        ].join('\n'),
        env,
      );
      const [login, config, whoami, status, stored, logout, after] = result.stdout.split(/^--- \w[\w-]*\n/m);
      expect(result.stderr).toMatch(/Logged in to 127\.0\.0\.1:\d+ as demo .*key in the system keyring \(Secret Service\)/);
      expect(login).toBe('');
      expect(config).not.toContain('lk_');
      expect(JSON.parse(config!).profiles.default).toMatchObject({ keyring: true, baseUrl: bed.sandbox.url });
      expect(JSON.parse(whoami!)).toHaveProperty('account');
      expect(JSON.parse(status!)).toMatchObject({ keySource: 'keyring', keyOrigin: 'the system keyring (Secret Service)' });
      expect(stored!.trim()).toBe('true');
      expect(logout).toBe('');
      expect(after).toBe('exit 3\n');
    });

    it('an extension’s `lk auth token` reads the key from the keyring, the key never in the extension’s environment', async () => {
      const extensions = tempDir('lk-keyring-ext-');
      writeFileSync(join(extensions, 'lk-tok'), `#!/bin/sh\nenv > '${join(extensions, 'env')}'\nlk auth token\n`, { mode: 0o755 });
      const key = bed.sandbox.key('full');
      const result = await inKeyringSession(
        ['printf "%s\\n" "$KEY" | lk auth login --with-key --base-url "$URL" 2>/dev/null', 'PATH="$EXTENSIONS:$PATH" lk tok'].join('\n'),
        { LK_CONFIG_DIR: join(tempDir('lk-keyring-'), 'config'), KEY: key, URL: bed.sandbox.url, EXTENSIONS: extensions },
      );
      expect(result).toMatchObject({ code: 0, stdout: `${key}\n` });
      const seen = readFileSync(join(extensions, 'env'), 'utf8').replace(/^KEY=.*$/m, '');
      expect(seen).not.toContain(key);
      expect(seen).not.toMatch(/^LK_(API_KEY|KEY_SOCKET)/m);
    });

    it('--insecure-storage keeps the key in the 0600 config file even with a keyring', async () => {
      const configDir = join(tempDir('lk-keyring-'), 'config');
      const result = await inKeyringSession('printf "%s\\n" "$KEY" | lk auth login --with-key --insecure-storage --base-url "$URL"', {
        LK_CONFIG_DIR: configDir,
        KEY: bed.sandbox.key('full'),
        URL: bed.sandbox.url,
      });
      expect(result.code).toBe(0);
      expect(JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')).profiles.default.key).toBe(bed.sandbox.key('full'));
      expect(statSync(join(configDir, 'config.json')).mode & 0o777).toBe(0o600);
    });
  });

  it('where no keyring answers (a session bus that is not there): the file fallback, said once, and lk works', async () => {
    const configDir = join(tempDir('lk-keyring-'), 'config');
    const missingBus = `unix:path=${join(configDir, '..', 'no-bus')}`;
    const login = await bed.lkProcess(['auth', 'login', '--with-key', '--base-url', bed.sandbox.url], {
      key: null,
      input: `${bed.sandbox.key('full')}\n`,
      env: { LK_CONFIG_DIR: configDir, DBUS_SESSION_BUS_ADDRESS: missingBus },
    });
    expect(login.code).toBe(0);
    expect(login.stderr).toMatch(
      /^lk: note: the system keyring \(Secret Service\) did not answer \(.+\); the key goes in .*config\.json \(mode 0600\)\.\n/,
    );
    expect(JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')).profiles.default.key).toBe(bed.sandbox.key('full'));
    const status = await bed.lkProcess(['auth', 'status', '--json'], {
      key: null,
      env: { LK_CONFIG_DIR: configDir, DBUS_SESSION_BUS_ADDRESS: missingBus },
    });
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ keySource: 'config' });
  });

  it('with no session bus at all: the file, without asking', async () => {
    const configDir = join(tempDir('lk-keyring-'), 'config');
    const login = await bed.lkProcess(['auth', 'login', '--with-key', '--base-url', bed.sandbox.url], {
      key: null,
      input: `${bed.sandbox.key('full')}\n`,
      env: { LK_CONFIG_DIR: configDir, DBUS_SESSION_BUS_ADDRESS: undefined },
    });
    expect(login.code).toBe(0);
    expect(login.stderr).toMatch(/^lk: note: no system keyring here \(no session bus\); the key goes in/);
  });
});

describe('a key file others can read', () => {
  let bed: TestBed;
  beforeAll(async () => {
    bed = await startTestBed();
  });
  afterAll(() => bed.sandbox.close());

  it('LK_API_KEY_FILE at 0644 works, with a warning naming the fix', async () => {
    const file = join(bed.home.root, 'key');
    writeFileSync(file, `${bed.sandbox.key('full')}\n`);
    chmodSync(file, 0o644);
    const result = await bed.lk(['whoami', '--json'], { key: null, env: { LK_API_KEY_FILE: file } });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`lk: warning: the key file ${file} is readable by others (mode 0644); run: chmod 600 ${file}\n`);
    chmodSync(file, 0o600);
    expect((await bed.lk(['whoami', '--json'], { key: null, env: { LK_API_KEY_FILE: file } })).stderr).toBe('');
  });
});
