import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir.js';
import { runLk, startTestBed, type TestBed } from './harness.js';

/**
 * lk alias (issue 50): gh's aliases, kept in the config file, expanded before the line is parsed. What lk starts as a
 * process (a shell alias's sh, an extension, an alias that runs either) is in alias-processes.test.ts.
 */

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

describe('lk help NAME for this machine’s own commands', () => {
  it('says what an alias runs, and which file an extension is', async () => {
    const env = own();
    await bed.lk(['alias', 'set', 'done', 'library --phase DONE --domain $1'], { env });
    await bed.lk(['alias', 'set', 'titles', '--shell', 'lk library --all --json | jq -r ".[].work.title"'], { env });
    const alias = await bed.lk(['help', 'done'], { env });
    expect(alias).toMatchObject({ code: 0, stderr: '' });
    expect(alias.stdout).toBe(
      'lk done is an alias (lk alias list): lk done ARGS… runs\n  lk library --phase DONE --domain $1\nwith $1, $2… replaced by the arguments, the others appended.\n',
    );
    const shell = await bed.lk(['help', 'titles'], { env });
    expect(shell.stdout).toBe(
      'lk titles is a shell alias (lk alias list): lk titles ARGS… runs, through sh,\n  lk library --all --json | jq -r ".[].work.title"\nwith the arguments as "$1", "$2"…, "$@".\n',
    );
    const bin = tempDir('lk-ext-bin-');
    writeFileSync(join(bin, 'lk-hello'), '#!/bin/sh\necho extension\n');
    chmodSync(join(bin, 'lk-hello'), 0o755);
    const extension = await bed.lk(['help', 'hello'], { env: { ...env, PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}` } });
    expect(extension.stdout).toBe(`lk hello is an extension (lk extension list): lk hello ARGS… runs\n  ${join(bin, 'lk-hello')} ARGS…\n`);
  });
});
