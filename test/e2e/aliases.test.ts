import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWith } from '../support/outside-tools.js';
import { tempDir } from '../support/temp-dir.js';
import { runLk, startTestBed, type TestBed } from './harness.js';

/** lk alias (issue 50): gh's aliases, kept in the config file, expanded before the line is parsed. */

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed({ rateLimit: 0, entries: 12 });
});
afterAll(() => bed.sandbox.close());

/** A config folder of its own for each test: aliases are the machine's. */
const own = () => ({ LK_CONFIG_DIR: join(tempDir('lk-alias-'), 'config') });

describe('lk alias', () => {
  it('an alias with placeholders prints exactly what the command it expands to prints', async () => {
    const env = own();
    const set = await bed.lk(['alias', 'set', 'phase', 'library --phase $1 --json'], { env });
    expect(set.code, set.stderr).toBe(0);
    const viaAlias = await bed.lk(['phase', 'DONE', '--limit', '3'], { env });
    const direct = await bed.lk(['library', '--phase', 'DONE', '--json', '--limit', '3'], { env });
    expect(viaAlias.code, viaAlias.stderr).toBe(0);
    expect(JSON.parse(viaAlias.stdout)).toHaveLength(3);
    expect(viaAlias.stdout).toBe(direct.stdout);
    // The global flags before it stay where they were.
    const globals = await bed.lk(['--fields', 'id', 'phase', 'DONE', '--limit', '2'], { env });
    expect(globals.stdout).toBe((await bed.lk(['--fields', 'id', 'library', '--phase', 'DONE', '--json', '--limit', '2'], { env })).stdout);
  });

  it('a placeholder without its argument is a usage error naming the alias (exit 2)', async () => {
    const env = own();
    await bed.lk(['alias', 'set', 'phase', 'library --phase $1'], { env });
    const result = await bed.lk(['phase'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('lk: alias phase needs an argument for $1: library --phase $1\n');
  });

  it('quoted words stay whole', async () => {
    const env = own();
    await bed.lk(['alias', 'set', 'titles', `library --json --jq '.[] | .id'`], { env });
    const viaAlias = await bed.lk(['titles', '--limit', '2'], { env });
    expect(viaAlias.code, viaAlias.stderr).toBe(0);
    expect(viaAlias.stdout).toBe((await bed.lk(['library', '--json', '--jq', '.[] | .id', '--limit', '2'], { env })).stdout);
  });

  it('refuses the name of a command, and a name that is not a plain word (exit 2, one line)', async () => {
    const env = own();
    for (const name of ['library', 'help', 'alias']) {
      const result = await bed.lk(['alias', 'set', name, 'history'], { env });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`lk: "${name}" is a command of lk: an alias cannot take its name\n`);
    }
    const odd = await bed.lk(['alias', 'set', '-x y', 'history'], { env });
    expect(odd.code).toBe(2);
    expect((await bed.lk(['alias', 'list'], { env })).stdout).toBe('');
  });

  it('refuses an expansion that names no command of lk (exit 2), unless it is for sh', async () => {
    const env = own();
    const result = await bed.lk(['alias', 'set', 'oops', 'libary --all'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('lk: the expansion does not start with a command of lk (or use --shell): libary --all\n');
    expect((await bed.lk(['alias', 'set', 'oops', '--shell', 'libary --all'], { env })).code).toBe(0);
  });

  it('lists, changes and deletes; deleting an unknown alias is one line, exit 2', async () => {
    const env = own();
    await bed.lk(['alias', 'set', 'r', 'library --phase IN_PROGRESS'], { env });
    await bed.lk(['alias', 'set', 'sh', '!echo hi'], { env });
    expect((await bed.lk(['alias', 'list'], { env })).stdout).toBe('r: library --phase IN_PROGRESS\nsh: !echo hi\n');
    expect((await bed.lk(['alias'], { env })).stdout).toBe('r: library --phase IN_PROGRESS\nsh: !echo hi\n');
    const changed = await bed.lk(['alias', 'set', 'r', 'history'], { env });
    expect(changed.stderr).toMatch(/^changed alias r: history \(in .*config\.json\)\n$/);
    expect((await bed.lk(['alias', 'delete', 'r'], { env })).code).toBe(0);
    expect((await bed.lk(['alias', 'list'], { env })).stdout).toBe('sh: !echo hi\n');
    const unknown = await bed.lk(['alias', 'delete', 'r'], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('lk: no alias named "r" (lk alias list shows them)\n');
    // Run as a command, a deleted alias is an unknown command.
    const gone = await bed.lk(['r'], { env });
    expect(gone.code).toBe(2);
    expect(gone.stderr).toBe("lk: unknown command 'r'\n");
  });

  it('is kept for every profile: --profile is refused by set and delete', async () => {
    const env = own();
    const result = await bed.lk(['--profile', 'work', 'alias', 'set', 'r', 'history'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^lk: lk alias set changes the aliases of every profile: --profile does not apply\n/);
    expect((await bed.lk(['alias', 'list'], { env })).stdout).toBe('');
    expect((await bed.lk(['--profile', 'work', 'alias', 'delete', 'r'], { env })).code).toBe(2);
  });

  it('shows in lk --help under a heading of its own', async () => {
    const env = own();
    await bed.lk(['alias', 'set', 'reading', 'library --phase IN_PROGRESS'], { env });
    const help = await bed.lk(['--help'], { env });
    expect(help.stdout).toMatch(/\nAliases \(lk alias list\):\n {2}reading {2}library --phase IN_PROGRESS\n/);
    // And the launcher, which answers lk --help from the stored help, hands it to the program.
    const launched = await runLk(['--help'], { env: { ...env, COLUMNS: '80' } });
    expect(launched.stdout).toContain('\nAliases (lk alias list):\n  reading  library --phase IN_PROGRESS\n');
  });
});

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
