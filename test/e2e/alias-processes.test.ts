import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWith } from '../support/outside-tools.js';
import { tempDir } from '../support/temp-dir.js';
import { lkShellCommand, outputOf, runLk, startTestBed, type TestBed } from './harness.js';

/** lk alias (issue 50) and extensions, where lk starts sh, lk-NAME or itself as real processes (the rest: aliases.test.ts). */

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed({ rateLimit: 0, entries: 12 });
});
afterAll(() => bed.sandbox.close());

/** A config folder of its own for each test: aliases are the machine's. */
const own = () => ({ LK_CONFIG_DIR: join(tempDir('lk-alias-'), 'config') });

describeWith(['sh'], 'a shell alias', () => {
  it('runs through sh with the arguments as "$1"…, its exit status passed on', async () => {
    const env = own();
    const out = join(tempDir('lk-alias-out-'), 'said');
    await bed.lk(['alias', 'set', 'say', '--shell', `printf '%s|' "$0" "$@" > "${out}"; exit 4`], { env });
    expect((await bed.lk(['alias', 'list'], { env })).stdout).toMatch(/^say: !printf/);
    const result = await runLk(['say', 'one two', 'three'], { env });
    expect(result.code).toBe(4);
    expect(readFileSync(out, 'utf8')).toBe('say|one two|three|');
    // A leading ! says the same as --shell.
    await bed.lk(['alias', 'set', 'hi', '!echo "hi $1"'], { env });
    const hi = await runLk(['hi', 'there'], { env });
    expect(hi).toMatchObject({ code: 0, stdout: 'hi there\n' });
  });
});

describeWith(['sh'], 'extensions: lk-NAME on PATH', () => {
  const KEY_IN_CONFIG = `lk_${'C'.repeat(49)}`;
  const KEY_IN_FILE = `lk_${'F'.repeat(49)}`;
  const USERS_KEY = `lk_${'U'.repeat(49)}`;

  /** A home with a stored key for profile work, a key file, and lk-probe on PATH, which writes down what it got. */
  function home(): { env: Record<string, string>; seen: () => string; keyFile: string } {
    const root = tempDir('lk-ext-');
    const configDir = join(root, 'config');
    mkdirSync(configDir, { mode: 0o700 });
    const config = { profiles: { work: { baseUrl: 'https://work.example.org/', key: KEY_IN_CONFIG } } };
    writeFileSync(join(configDir, 'config.json'), JSON.stringify(config), { mode: 0o600 });
    const keyFile = join(root, 'key');
    writeFileSync(keyFile, KEY_IN_FILE, { mode: 0o600 });
    const bin = join(root, 'bin');
    mkdirSync(bin);
    const seen = join(root, 'seen');
    writeFileSync(
      join(bin, 'lk-probe'),
      `#!/bin/sh\nprintf '%s|' "$@" > "${seen}"\necho >> "${seen}"\nenv >> "${seen}"\necho "probe says hi"\nexit 7\n`,
    );
    chmodSync(join(bin, 'lk-probe'), 0o755);
    return {
      env: { LK_CONFIG_DIR: configDir, PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}` },
      seen: () => readFileSync(seen, 'utf8'),
      keyFile,
    };
  }

  it('gets its arguments, and lk exits with its exit status', async () => {
    const { env, seen } = home();
    const result = await runLk(['probe', 'a b', '--json', 'c'], { env });
    expect(result).toMatchObject({ code: 7, stdout: 'probe says hi\n', stderr: '' });
    expect(seen().split('\n')[0]).toBe('a b|--json|c|');
  });

  it('gets LK_PROFILE and LK_BASE_URL, and no key lk read from the config or the key file', async () => {
    const { env, seen, keyFile } = home();
    const result = await runLk(['--profile', 'work', 'probe'], { env: { ...env, LK_API_KEY_FILE: keyFile } });
    expect(result.code).toBe(7);
    const vars = seen();
    expect(vars).toMatch(/^LK_PROFILE=work$/m);
    expect(vars).toMatch(/^LK_BASE_URL=https:\/\/work\.example\.org$/m);
    expect(vars).not.toContain(KEY_IN_CONFIG);
    expect(vars).not.toContain(KEY_IN_FILE);
    expect(vars).not.toMatch(/^LK_API_KEY/m);
  });

  it('passes on an LK_API_KEY the user set, as gh passes GH_TOKEN', async () => {
    const { env, seen } = home();
    const result = await runLk(['probe'], { env: { ...env, LK_API_KEY: USERS_KEY, LK_PROFILE: 'work' } });
    expect(result.code).toBe(7);
    expect(seen()).toMatch(new RegExp(`^LK_API_KEY=${USERS_KEY}$`, 'm'));
    expect(seen()).toMatch(/^LK_PROFILE=work$/m);
  });

  it('never runs in place of a command of lk: lk-whoami on PATH is not run by lk whoami', async () => {
    const { env } = home();
    const bin = env.PATH!.split(':')[0]!;
    writeFileSync(join(bin, 'lk-whoami'), '#!/bin/sh\necho extension\n');
    chmodSync(join(bin, 'lk-whoami'), 0o755);
    const result = await runLk(['whoami', '--help'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: lk whoami/);
    const listed = await runLk(['extension', 'list'], { env });
    expect(listed.stdout).toBe(`probe   ${join(bin, 'lk-probe')}\nwhoami  ${join(bin, 'lk-whoami')}  (not run: lk whoami is a command of lk)\n`);
  });

  it('lk extension list names each one and its file; lk --help too', async () => {
    const { env } = home();
    const bin = env.PATH!.split(':')[0]!;
    expect((await runLk(['extension', 'list'], { env })).stdout).toBe(`probe  ${join(bin, 'lk-probe')}\n`);
    expect((await runLk(['--help'], { env })).stdout).toContain(`\nExtensions (lk extension list):\n  probe  ${join(bin, 'lk-probe')}\n`);
  });

  it('a word that is neither a command, an alias nor an extension is an unknown command (exit 2)', async () => {
    const { env } = home();
    const result = await runLk(['prob'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("lk: unknown command 'prob'\n");
  });
});

/** A folder holding `lk` (this build, as the tests start it), for shell aliases and extensions that run lk themselves. */
function lkOnPath(): string {
  const bin = tempDir('lk-bin-');
  writeFileSync(join(bin, 'lk'), `#!/bin/sh\nexec ${lkShellCommand()} "$@"\n`);
  chmodSync(join(bin, 'lk'), 0o755);
  return bin;
}

describeWith(['sh'], 'a shared machine: what lk starts is found in PATH’s absolute folders only', () => {
  /** A current folder holding a `sh` and an `lk-hi` that would leave a marker file, were they run. */
  function plantedFolder(): { cwd: string; marker: string } {
    const cwd = tempDir('lk-planted-');
    const marker = join(cwd, 'marker');
    for (const name of ['sh', 'lk-hi']) {
      writeFileSync(join(cwd, name), `#!/bin/sh\ntouch '${marker}'\n`);
      chmodSync(join(cwd, name), 0o755);
    }
    return { cwd, marker };
  }

  it.each([
    ['an empty entry first', (path: string) => `:${path}`],
    ['a relative entry', (path: string) => `.:${path}`],
  ])('%s: a shell alias runs the system’s sh, never ./sh of the current folder', async (_name, withEntry) => {
    const env = own();
    const { cwd, marker } = plantedFolder();
    await bed.lk(['alias', 'set', 'hi', '!echo "hi $1"'], { env });
    const result = await runLk(['hi', 'there'], { env: { ...env, PATH: withEntry(process.env.PATH ?? '/usr/bin:/bin') }, cwd });
    expect(result).toMatchObject({ code: 0, stdout: 'hi there\n' });
    expect(existsSync(marker)).toBe(false);
    // Nor an extension of the current folder.
    const extension = await runLk(['hi'], { env: { LK_CONFIG_DIR: join(cwd, 'none'), PATH: withEntry(process.env.PATH ?? '/usr/bin:/bin') }, cwd });
    expect(extension.code).toBe(2);
    expect(existsSync(marker)).toBe(false);
  });

  it('a shell alias’s sh gets neither the key file nor its path (LK_API_KEY_FILE), as an extension does not', async () => {
    const env = own();
    const root = tempDir('lk-alias-env-');
    const keyFile = join(root, 'key');
    const key = `lk_${'F'.repeat(49)}`;
    writeFileSync(keyFile, key, { mode: 0o600 });
    await bed.lk(['alias', 'set', 'envdump', `!env > '${join(root, 'env')}'`], { env });
    const result = await runLk(['envdump'], { env: { ...env, LK_API_KEY_FILE: keyFile } });
    expect(result.code, result.stderr).toBe(0);
    const seen = readFileSync(join(root, 'env'), 'utf8');
    expect(seen).not.toContain(key);
    expect(seen).not.toContain(keyFile);
    expect(seen).not.toMatch(/^LK_API_KEY/m);
  });
});

describeWith(['sh'], 'aliases that run aliases and extensions', () => {
  it('an alias that runs itself, or two that run each other, stop at once naming the chain (exit 2)', async () => {
    const env = { ...own(), PATH: `${lkOnPath()}:${process.env.PATH ?? '/usr/bin:/bin'}` };
    await bed.lk(['alias', 'set', 'loop', '!lk loop "$@"'], { env });
    const self = await runLk(['loop', 'x'], { env, timeoutMs: 20_000 });
    expect(self).toMatchObject({ code: 2, stdout: '' });
    expect(self.stderr).toBe('lk: alias loop: loop → loop (an alias or extension that runs itself never ends)\n');
    await bed.lk(['alias', 'set', 'ping', '!lk pong'], { env });
    await bed.lk(['alias', 'set', 'pong', '!lk ping'], { env });
    const pair = await runLk(['ping'], { env, timeoutMs: 20_000 });
    expect(pair.code).toBe(2);
    expect(pair.stderr).toBe('lk: alias loop: ping → pong → ping (an alias or extension that runs itself never ends)\n');
  });

  it('a chain of different aliases stops past 8 deep, naming it (exit 2)', async () => {
    const env = { ...own(), PATH: `${lkOnPath()}:${process.env.PATH ?? '/usr/bin:/bin'}` };
    for (let n = 1; n <= 9; n++) await bed.lk(['alias', 'set', `a${n}`, `!lk a${n + 1}`], { env });
    const result = await runLk(['a1'], { env, timeoutMs: 20_000 });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe('lk: aliases and extensions nest more than 8 deep: a1 → a2 → a3 → a4 → a5 → a6 → a7 → a8 → a9\n');
  });

  it('an alias may stand for an extension, with its arguments', async () => {
    const env = own();
    const bin = tempDir('lk-ext-bin-');
    const seen = join(bin, 'seen');
    writeFileSync(join(bin, 'lk-probe'), `#!/bin/sh\nprintf '%s|' "$@" > '${seen}'\nexit 7\n`);
    chmodSync(join(bin, 'lk-probe'), 0o755);
    const withBin = { ...env, PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}` };
    const set = await bed.lk(['alias', 'set', 'pr', 'probe --one $1'], { env: withBin });
    expect(set.code, set.stderr).toBe(0);
    const result = await runLk(['pr', 'a b', 'c'], { env: withBin });
    expect(result.code, result.stderr).toBe(7);
    expect(readFileSync(seen, 'utf8')).toBe('--one|a b|c|');
  });

  it('an extension’s name is refused by alias set; one that comes later is hidden by the alias, and every list says so', async () => {
    const env = own();
    const bin = tempDir('lk-ext-bin-');
    const withBin = { ...env, PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}` };
    const extension = (name: string) => {
      writeFileSync(join(bin, `lk-${name}`), '#!/bin/sh\necho extension\n');
      chmodSync(join(bin, `lk-${name}`), 0o755);
    };
    extension('hello');
    const refused = await bed.lk(['alias', 'set', 'hello', 'library'], { env: withBin });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(`lk: "hello" is an extension (${join(bin, 'lk-hello')}): an alias cannot take its name\n`);
    // An alias made first, an extension of its name installed after: the alias runs, and nothing offers the name twice.
    await bed.lk(['alias', 'set', 'later', '!echo alias'], { env: withBin });
    extension('later');
    expect((await runLk(['later'], { env: withBin })).stdout).toBe('alias\n');
    expect((await runLk(['completion', '--aliases'], { env: withBin })).stdout).toBe('later\n');
    expect((await runLk(['completion', '--extensions'], { env: withBin })).stdout).toBe('hello\n');
    const help = (await runLk(['--help'], { env: withBin })).stdout;
    expect(help).toContain('\nAliases (lk alias list):\n  later  !echo alias\n');
    expect(help).toContain(`\nExtensions (lk extension list):\n  hello  ${join(bin, 'lk-hello')}\n`);
    expect((await runLk(['extension', 'list'], { env: withBin })).stdout).toBe(
      `hello  ${join(bin, 'lk-hello')}\nlater  ${join(bin, 'lk-later')}  (not run: lk later is your alias)\n`,
    );
  });
});

describeWith(['sh', 'jq'], 'every example of lk alias, lk extension and lk help runs', () => {
  /** The indented lines after "Examples:", and a `# lk …` comment after one as a line of its own. */
  function examplesIn(help: string): string[] {
    const start = help.indexOf('\nExamples:\n');
    const lines = help.slice(start + '\nExamples:\n'.length).split('\n');
    const end = lines.findIndex((line) => !line.startsWith('  '));
    return (end === -1 ? lines : lines.slice(0, end)).flatMap((line) => {
      const [command, comment] = line.trim().split(/\s+# /);
      return [command!, ...(comment?.startsWith('lk ') ? [comment] : [])];
    });
  }

  /** Each line through sh, in order, in one config folder, with lk (and lk-hello, of lk extension's examples) on PATH and the sandbox as its instance. */
  async function runAll(lines: string[]): Promise<void> {
    const bin = lkOnPath();
    writeFileSync(join(bin, 'lk-hello'), '#!/bin/sh\necho "hello $*"\n');
    chmodSync(join(bin, 'lk-hello'), 0o755);
    const env = { ...bed.env(), ...own(), PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}` };
    for (const line of lines) {
      const result = await outputOf(spawn('sh', ['-c', line], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] }));
      expect(result.code, `${line}\n${result.stderr}`).toBe(0);
    }
  }

  it('in lk alias --help and its subcommands’, one after another', async () => {
    const helps = await Promise.all([['alias'], ['alias', 'set'], ['alias', 'list'], ['alias', 'delete']].map((path) => bed.lk([...path, '--help'])));
    const lines = helps.flatMap((help) => examplesIn(help.stdout));
    expect(lines).toContain('lk done BOOKS');
    await runAll(lines);
  });

  it('in lk extension --help and lk help --help', async () => {
    const helps = await Promise.all([['extension'], ['extension', 'list'], ['help']].map((path) => bed.lk([...path, '--help'])));
    const lines = helps.flatMap((help) => examplesIn(help.stdout));
    expect(lines).toEqual(expect.arrayContaining(['lk hello world', 'lk help alias set']));
    await runAll(lines);
  });

  it('in docs/aliases.md', async () => {
    const section = readFileSync(new URL('../../docs/aliases.md', import.meta.url), 'utf8');
    const opening = section.indexOf('```sh\n') + '```sh\n'.length;
    const block = section.slice(opening, section.indexOf('\n```', opening));
    const lines = block.split('\n').map((line) => line.replace(/\s+# .*$/, ''));
    expect(lines).toContain('lk done BOOKS');
    await runAll(lines);
  });
});

describeWith(['sh', 'jq'], 'an extension’s lk finds the key however lk does, the key never in its environment', () => {
  /** A key file holding the sandbox's key, an extension folder with lk on PATH, and no LK_API_KEY. */
  function keyFileHome(): { env: Record<string, string | undefined>; bin: string; keyFile: string; key: string } {
    const root = tempDir('lk-ext-key-');
    const key = bed.sandbox.key('full');
    const keyFile = join(root, 'key');
    writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
    const bin = join(root, 'bin');
    mkdirSync(bin);
    const env = { ...bed.env(null), ...own(), LK_API_KEY_FILE: keyFile, PATH: `${bin}:${lkOnPath()}:${process.env.PATH ?? '/usr/bin:/bin'}` };
    return { env, bin, keyFile, key };
  }

  it('under LK_API_KEY_FILE, `lk auth token` inside the extension prints the key; its environment holds neither key nor file', async () => {
    const { env, bin, keyFile, key } = keyFileHome();
    const seen = join(bin, 'env');
    writeFileSync(join(bin, 'lk-tok'), `#!/bin/sh\nenv > '${seen}'\nlk auth token\n`);
    chmodSync(join(bin, 'lk-tok'), 0o755);
    const result = await runLk(['tok'], { env });
    expect(result).toMatchObject({ code: 0, stdout: `${key}\n`, stderr: '' });
    const vars = readFileSync(seen, 'utf8');
    expect(vars).not.toContain(key);
    expect(vars).not.toContain(keyFile);
    expect(vars).not.toMatch(/^LK_API_KEY/m);
    // The socket is the extension's only while it runs.
    const socket = /^LK_KEY_SOCKET=(.*)$/m.exec(vars)?.[1];
    expect(socket).toBeDefined();
    expect(existsSync(socket!)).toBe(false);
    const after = await runLk(['auth', 'token'], { env: { ...env, LK_API_KEY_FILE: undefined, LK_KEY_SOCKET: socket } });
    expect(after.code).toBe(3);
    expect(after.stdout).toBe('');
  });

  it('with the key in the 0600 config file, `lk auth token` inside the extension reads it there, the key not in its environment', async () => {
    const { env, bin, key } = keyFileHome();
    const configDir = env.LK_CONFIG_DIR!;
    mkdirSync(configDir, { recursive: true, mode: 0o700 });
    const config = { profiles: { work: { baseUrl: bed.sandbox.url, key } } };
    writeFileSync(join(configDir, 'config.json'), JSON.stringify(config), { mode: 0o600 });
    const seen = join(bin, 'env');
    writeFileSync(join(bin, 'lk-tok'), `#!/bin/sh\nenv > '${seen}'\nlk auth token\n`);
    chmodSync(join(bin, 'lk-tok'), 0o755);
    const result = await runLk(['--profile', 'work', 'tok'], { env: { ...env, LK_API_KEY_FILE: undefined } });
    expect(result).toMatchObject({ code: 0, stdout: `${key}\n`, stderr: '' });
    expect(readFileSync(seen, 'utf8')).not.toContain(key);
    expect(readFileSync(seen, 'utf8')).not.toMatch(/^LK_KEY_SOCKET=/m);
  });

  it('the sample extension of docs/aliases.md lists what is being read, under LK_API_KEY_FILE as cron lines set it', async () => {
    const { env, bin } = keyFileHome();
    const guide = readFileSync(new URL('../../docs/aliases.md', import.meta.url), 'utf8');
    const sample = /`~\/\.local\/bin\/lk-reading`[^\n]*\n\n```sh\n([\s\S]*?)```/.exec(guide)?.[1];
    expect(sample).toBeDefined();
    writeFileSync(join(bin, 'lk-reading'), sample!);
    chmodSync(join(bin, 'lk-reading'), 0o755);
    const direct = await bed.lk(['library', '--phase', 'IN_PROGRESS', '--limit', '3', '--json']);
    const titles = (JSON.parse(direct.stdout) as Array<{ work: { title: string } }>).map((entry) => entry.work.title);
    expect(titles.length).toBeGreaterThan(0);
    const result = await runLk(['reading', '3'], { env });
    expect(result.stderr).toBe(`# default on ${bed.sandbox.url.replace(/\/$/, '')}\n`);
    expect(result).toMatchObject({ code: 0, stdout: titles.map((title) => `${title}\n`).join('') });
  });
});
