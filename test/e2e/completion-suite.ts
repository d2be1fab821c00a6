import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOMAINS, ORDERS, PHASES, SORTS } from '../../src/api/vocabulary.js';
import { COLOR_MODES, LANGS, SETTINGS } from '../../src/config/settings.js';
import { DATA_FORMATS as FORMATS } from '../../src/util/data-formats.js';
import { hasSqlite } from '../../src/completion/ids.js';
import { lkShellCommand, runLk } from './harness.js';
import { describeWith } from '../support/outside-tools.js';
import { tempDir } from '../support/temp-dir.js';

/**
 * The checked-in scripts, loaded the way docs/install.md installs them, in the real bash, zsh and fish (describeWith:
 * skipped where a shell is missing, required in CI): each test types a command line, presses Tab, and reads what the
 * shell offers.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCRIPT_FILES = { bash: 'lk.bash', zsh: '_lk', fish: 'lk.fish' } as const;
export type Shell = keyof typeof SCRIPT_FILES;
const SHELLS = Object.keys(SCRIPT_FILES) as Shell[];
const PROFILES = ['home', 'work'];
const TOP_LEVEL = [
  'auth',
  'whoami',
  'library',
  'history',
  'lists',
  'calendar',
  'stats',
  'reviews',
  'profile',
  'notifications',
  'export',
  'open',
  'api',
  'config',
  'completion',
  'sandbox',
];
const SETTING_NAMES = Object.keys(SETTINGS);
/** The ids of the tiny mirror each test home gets (see makeMirror). */
const MIRROR_ENTRIES = ['e1abc', 'e2def', 'x9zzz'];
const MIRROR_LISTS = ['l7', 'l8'];

/**
 * A mirror as `lk sync` leaves it: `<data>/<profile>.db` with entries(id, json) and lists(id, json). Written with
 * node:sqlite where this Node has it (22.13 and later); older Node, where lk reads no mirror,
 * has no SQLite to write it with: a file stands in its place, and the test shows that lk completes nothing, quietly.
 */
function makeMirror(dataDir: string, profile = 'default'): void {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, `${profile}.db`);
  const sql = [
    'CREATE TABLE entries (id TEXT PRIMARY KEY, json TEXT NOT NULL, updated_at TEXT);',
    'CREATE TABLE lists (id TEXT PRIMARY KEY, json TEXT NOT NULL);',
    ...MIRROR_ENTRIES.map((id) => `INSERT INTO entries (id, json) VALUES ('${id}', '{"id":"${id}"}');`),
    ...MIRROR_LISTS.map((id) => `INSERT INTO lists (id, json) VALUES ('${id}', '{"id":"${id}"}');`),
  ].join('\n');
  const getBuiltinModule = (process as unknown as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  const sqlite = hasSqlite()
    ? (getBuiltinModule?.call(process, 'node:sqlite') as { DatabaseSync: new (path: string) => { exec(sql: string): void; close(): void } })
    : undefined;
  if (sqlite) {
    const db = new sqlite.DatabaseSync(file);
    db.exec(sql);
    db.close();
    return;
  }
  // Node < 22.13 cannot write one either: a file in its place, which lk there must not even try to read.
  writeFileSync(file, 'SQLite format 3\u0000');
}

interface CompletionHome {
  root: string;
  configDir: string;
  env: NodeJS.ProcessEnv;
}

/** A private HOME with `lk` on PATH, two stored profiles, and each script where docs/install.md installs it. */
function completionHome(): CompletionHome {
  const root = tempDir('lk-completion-');
  const bin = join(root, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'lk'), `#!/bin/sh\nexec ${lkShellCommand()} "$@"\n`);
  chmodSync(join(bin, 'lk'), 0o755);
  const configDir = join(root, 'lk-config');
  mkdirSync(configDir, { mode: 0o700 });
  const profiles = Object.fromEntries(PROFILES.map((name) => [name, { baseUrl: `https://${name}.example.org` }]));
  // An alias and an extension of this machine's, offered beside the commands.
  writeFileSync(join(configDir, 'config.json'), JSON.stringify({ profiles, aliases: { reading: 'library --phase IN_PROGRESS' } }), { mode: 0o600 });
  // And an extension of the alias's name, which the alias hides: its name is offered once (issue 56).
  for (const name of ['hello', 'reading']) {
    writeFileSync(join(bin, `lk-${name}`), `#!/bin/sh\necho ${name}\n`);
    chmodSync(join(bin, `lk-${name}`), 0o755);
  }
  const install = (dir: string, file: Shell, as: string) => {
    mkdirSync(join(root, dir), { recursive: true });
    copyFileSync(join(ROOT, 'completions', SCRIPT_FILES[file]), join(root, dir, as));
  };
  install('share/bash-completion/completions', 'bash', 'lk'); // ~/.local/share/bash-completion/completions/lk
  install('zsh-functions', 'zsh', '_lk'); // a folder on $fpath
  install('config/fish/completions', 'fish', 'lk.fish'); // ~/.config/fish/completions/lk.fish
  return {
    root,
    configDir,
    env: {
      PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      HOME: root,
      XDG_CONFIG_HOME: join(root, 'config'),
      XDG_DATA_HOME: join(root, 'share'),
      XDG_CACHE_HOME: join(root, 'cache'),
      LK_CONFIG_DIR: configDir,
      LANG: 'C.UTF-8',
      TERM: 'xterm',
    },
  };
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): string {
  const result = spawnSync(command, args, { env, encoding: 'utf8', timeout: 20_000 });
  if (result.error)
    throw new Error(
      `${command}: ${result.error.message}${(result.error as NodeJS.ErrnoException).code === 'ENOENT' ? ' (install it: see .ci/run)' : ''}`,
    );
  if (result.status !== 0)
    throw new Error(`${command} exited ${result.status}${result.signal ? ` (${result.signal})` : ''}:\n${result.stderr}${result.stdout}`);
  return result.stdout;
}

/** Words as readline hands them to bash: "=" is in COMP_WORDBREAKS, so `--phase=D` is `--phase`, `=`, `D`. */
function bashWords(line: string): string[] {
  return line.split(' ').flatMap((word) => (word === '' ? [''] : word.split(/(=)/).filter((part) => part !== '')));
}

const BASH_DRIVER = `
source "$1"; shift
spec=$(complete -p lk) || exit 3
function=\${spec#*-F }; function=\${function%% *}
COMP_WORDS=("$@"); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); COMP_LINE="$*"; COMP_POINT=\${#COMP_LINE}
"$function" lk "\${COMP_WORDS[COMP_CWORD]}" "\${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\\n' "\${COMPREPLY[@]}"
`;

/**
 * zsh completes only inside its line editor: a second zsh runs in a pseudo-terminal (zpty) and gets a Tab. compinit
 * reads the home's dump (written once by zshCompdump, as an interactive zsh keeps ~/.zcompdump): without one it
 * scans every completion function on $fpath, a second or more per Tab.
 */
const ZSH_INIT = `
PS1='' RPROMPT=''
fpath=("$LK_TEST_FPATH" $fpath)
autoload -Uz compinit && compinit -u -C -d "$LK_TEST_ZCOMPDUMP"
zstyle ':completion:*' insert-tab false
# Every match offered is appended to $LK_TEST_CAPTURE instead of being shown.
compadd() {
  # Calls that only collect matches (-O, -A, -D) are completion internals: let them through.
  if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then builtin compadd "$@"; return; fi
  local -a matches
  builtin compadd -A matches "$@"
  (( $#matches )) && print -rl -- $matches >> $LK_TEST_CAPTURE
  (( $#matches ))
}
comppostfuncs=(lk_test_done)
lk_test_done() { print -r -- '<done>' >> $LK_TEST_CAPTURE; exit }
bindkey '^I' complete-word
print -r -- 'ready''!'
`;

const ZSH_DRIVER = `
zmodload zsh/zpty || exit 3
zpty shell zsh -f -i
zpty -w shell "source \${(q)1}"
zpty -r shell _ '*ready!*' || exit 4
zpty -w -n shell "$2"$'\\t'
while zpty -r shell _; do :; done
zpty -d shell 2>/dev/null
exit 0
`;

/**
 * The home's compinit dump, made by a first full compinit: with lk's folder on $fpath (so it records _lk for lk), or
 * `bare`, with zsh's own functions alone.
 */
function zshCompdump(home: CompletionHome, bare = false): string {
  const dump = join(home.root, bare ? '.zcompdump-bare' : '.zcompdump');
  if (!existsSync(dump)) {
    const script = `${bare ? '' : 'fpath=("$LK_TEST_FPATH" $fpath); '}autoload -Uz compinit && compinit -u -d "$LK_TEST_ZCOMPDUMP"`;
    run('zsh', ['-f', '-c', script], { ...home.env, LK_TEST_FPATH: join(home.root, 'zsh-functions'), LK_TEST_ZCOMPDUMP: dump });
  }
  return dump;
}

/** What each shell offers on Tab at the end of `line`, without descriptions, de-duplicated. */
function complete(shell: Shell, home: CompletionHome, line: string): string[] {
  return [...new Set(offeredAsIs(shell, home, line))];
}

/** What each shell offers on Tab at the end of `line`, without descriptions, a word offered twice twice. */
function offeredAsIs(shell: Shell, home: CompletionHome, line: string): string[] {
  let out: string;
  if (shell === 'bash') {
    out = run(
      'bash',
      ['--norc', '--noprofile', '-c', BASH_DRIVER, 'bash', join(home.root, 'share/bash-completion/completions/lk'), ...bashWords(line)],
      home.env,
    );
  } else if (shell === 'zsh') {
    const capture = join(home.root, `zsh-capture-${Math.random().toString(36).slice(2)}`);
    writeFileSync(join(home.root, 'zsh-init.zsh'), ZSH_INIT);
    run('zsh', ['-f', '-c', ZSH_DRIVER, 'zsh', join(home.root, 'zsh-init.zsh'), line], {
      ...home.env,
      LK_TEST_FPATH: join(home.root, 'zsh-functions'),
      LK_TEST_ZCOMPDUMP: zshCompdump(home),
      LK_TEST_CAPTURE: capture,
    });
    const captured = existsSync(capture) ? readFileSync(capture, 'utf8') : '';
    if (!captured.endsWith('<done>\n')) throw new Error(`zsh did not finish completing "${line}": ${captured}`);
    out = captured.slice(0, -'<done>\n'.length);
  } else {
    // fish loads ~/.config/fish/completions/lk.fish by itself the first time it completes `lk`.
    out = run('fish', ['-c', 'complete -C $argv[1]', line], home.env).replace(/\t.*$/gm, '');
  }
  return out.split('\n').filter((word) => word !== '');
}

const sorted = (words: readonly string[]) => [...words].sort();

/** Behaviour every shell must show, as a command line and what Tab offers at its end. */
const CASES: Array<{
  title: string;
  line: string;
  exactly?: readonly string[];
  includes?: readonly string[];
  excludes?: readonly string[];
  /** Each word offered once, not de-duplicated first. */
  once?: boolean;
}> = [
  { title: 'top-level commands', line: 'lk ', includes: TOP_LEVEL, excludes: ['help'] },
  { title: 'commands starting with what is typed', line: 'lk li', exactly: ['library', 'lists'] },
  { title: 'the subcommands of a command', line: 'lk library ', exactly: ['list', 'show', 'history'] },
  {
    title: 'flags of the command, of its default subcommand, and global ones',
    line: 'lk library --',
    includes: [
      '--phase',
      '--domain',
      '--sort',
      '--order',
      '--page',
      '--limit',
      '--all',
      '--max',
      '--json',
      '--format',
      '--profile',
      '--lang',
      '--help',
    ],
  },
  { title: 'a flag from its beginning', line: 'lk library --ph', exactly: ['--phase'] },
  { title: '--phase values', line: 'lk library --phase ', exactly: PHASES },
  { title: '--phase values after --phase=', line: 'lk library list --phase=', exactly: PHASES },
  { title: '--domain values', line: 'lk history --domain ', exactly: DOMAINS },
  { title: '--sort values', line: 'lk library --sort ', exactly: SORTS },
  { title: '--order values', line: 'lk library --order ', exactly: ORDERS },
  { title: '--lang values', line: 'lk reviews --lang ', exactly: LANGS },
  { title: '--format values, without ics outside calendar', line: 'lk library --format ', exactly: FORMATS },
  { title: '--format values with ics on calendar', line: 'lk calendar --format ', exactly: [...FORMATS, 'ics'] },
  { title: '--format values on lk report: its own (what its --format accepts)', line: 'lk report --format ', exactly: ['html', 'json'] },
  { title: '--format values on lk sandbox: its own', line: 'lk sandbox --format ', exactly: ['lines', 'json'] },
  { title: 'stored profile names for --profile', line: 'lk --profile ', exactly: PROFILES },
  { title: 'stored profile names for --profile after a command', line: 'lk library --profile w', exactly: ['work'] },
  { title: 'commands after a global flag and its value', line: 'lk --profile work --json lib', exactly: ['library'] },
  { title: 'the shells of lk completion', line: 'lk completion ', exactly: ['bash', 'zsh', 'fish', 'powershell'] },
  { title: 'nothing for an id without a mirror', line: 'lk lists show ', exactly: [] },
  { title: 'setting names for lk config set', line: 'lk config set ', exactly: SETTING_NAMES },
  { title: 'setting names for lk config get, from what is typed', line: 'lk config get la', exactly: ['lang'] },
  { title: 'setting names for lk config unset', line: 'lk config unset ', exactly: SETTING_NAMES },
  { title: 'the values of the setting named: format', line: 'lk config set format ', exactly: FORMATS },
  { title: 'the values of the setting named: color', line: 'lk config set color ', exactly: COLOR_MODES },
  { title: 'the values of the setting named: csv-safe', line: 'lk config set csv-safe ', exactly: ['true', 'false'] },
  { title: 'nothing for a free value (timeout)', line: 'lk config set timeout ', exactly: [] },
  { title: 'stored profile names for lk auth switch', line: 'lk auth switch ', exactly: PROFILES },
  { title: "this machine's aliases and extensions beside the commands", line: 'lk ', includes: [...TOP_LEVEL, 'reading', 'hello'] },
  { title: 'an alias from what is typed, once though an extension has its name too', line: 'lk rea', exactly: ['reading'], once: true },
  { title: 'an extension from what is typed', line: 'lk hel', exactly: ['hello'] },
  { title: 'the aliases for lk alias delete', line: 'lk alias delete ', exactly: ['reading'] },
];

/** What Tab offers for ids from the mirror: its ids on Node 22.13 and later, nothing (and no error) before. */
const ID_CASES = [
  { title: 'entry ids for lk library show', line: 'lk library show ', ids: MIRROR_ENTRIES },
  { title: 'entry ids from what is typed', line: 'lk library history e', ids: ['e1abc', 'e2def'] },
  { title: 'entry ids for lk open', line: 'lk open ', ids: MIRROR_ENTRIES },
  { title: 'list ids for lk lists show', line: 'lk lists show ', ids: MIRROR_LISTS },
];

/** The completion tests: `general` (the command, the checked-in scripts, install lines) or one shell's, run as a file of their own so the three shells run side by side. */
export function completionTests(part: 'general' | Shell): void {
  if (part === 'general') {
    describe('completions/ is what `lk completion SHELL` prints now', () => {
      for (const shell of SHELLS) {
        it(`completions/${SCRIPT_FILES[shell]} equals \`lk completion ${shell}\``, async () => {
          const result = await runLk(['completion', shell]);
          expect(result.code, result.stderr).toBe(0);
          const checkedIn = readFileSync(join(ROOT, 'completions', SCRIPT_FILES[shell]), 'utf8');
          expect(checkedIn, `completions/${SCRIPT_FILES[shell]} is stale: run \`npm run completions\` and commit the result`).toBe(result.stdout);
        });
      }
    });
  }
  if (part === 'general') {
    describe('lk completion', () => {
      it('without a shell is a usage error (exit 2) naming the shells', async () => {
        const result = await runLk(['completion']);
        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(/bash, zsh, fish/);
      });

      it('refuses a shell it has no script for (exit 2)', async () => {
        expect((await runLk(['completion', 'tcsh'])).code).toBe(2);
      });

      it('--profiles prints the stored profile names one a line, with no key, base URL or network', async () => {
        const home = completionHome();
        const result = await runLk(['completion', '--profiles'], {
          env: { LK_CONFIG_DIR: home.configDir, LK_BASE_URL: undefined, LK_API_KEY: undefined },
        });
        expect(result).toMatchObject({ code: 0, stderr: '' });
        expect(result.stdout).toBe('home\nwork\n');
        rmSync(home.root, { recursive: true, force: true });
      });

      it('--profiles prints nothing and exits 0 when there is no config, or it cannot be read (Tab must stay quiet)', async () => {
        const root = tempDir('lk-completion-');
        expect(await runLk(['completion', '--profiles'], { env: { LK_CONFIG_DIR: join(root, 'none') } })).toMatchObject({
          code: 0,
          stdout: '',
          stderr: '',
        });
        writeFileSync(join(root, 'config.json'), '{ not json');
        expect(await runLk(['completion', '--profiles'], { env: { LK_CONFIG_DIR: root } })).toMatchObject({ code: 0, stdout: '', stderr: '' });
        rmSync(root, { recursive: true, force: true });
      });
    });
  }
  if (part !== 'general') {
    const shell = part;
    describeWith([shell], `${shell} completes lk`, () => {
      let home: CompletionHome;
      beforeAll(() => {
        home = completionHome();
      });
      afterAll(() => rmSync(home.root, { recursive: true, force: true }));

      describe(`ids from the local mirror (${hasSqlite() ? 'node:sqlite' : `none on Node ${process.versions.node}`})`, () => {
        let mirrored: CompletionHome;
        beforeAll(() => {
          mirrored = completionHome();
          makeMirror(join(mirrored.env.XDG_DATA_HOME!, 'lk'));
        });
        afterAll(() => rmSync(mirrored.root, { recursive: true, force: true }));
        for (const { title, line, ids } of ID_CASES) {
          it(`${title}: "${line}"`, () => {
            expect(sorted(complete(shell, mirrored, line))).toEqual(hasSqlite() ? sorted(ids) : []);
          });
        }
      });

      for (const { title, line, exactly, includes, excludes, once } of CASES) {
        it(`${title}: "${line}"`, () => {
          // fish offers `--phase=DONE` after `--phase=`; bash and zsh the value alone.
          const asIs = offeredAsIs(shell, home, line).map((word) => word.replace(/^--[\w-]+=/, ''));
          const offered = [...new Set(asIs)];
          if (once) expect(asIs).toEqual(offered);
          if (exactly) expect(sorted(offered)).toEqual(sorted(exactly));
          if (includes) expect(offered).toEqual(expect.arrayContaining([...includes]));
          for (const word of excludes ?? []) expect(offered).not.toContain(word);
        });
      }
    });
  }
  if (part === 'general') {
    describe('lk completion --ids', () => {
      it("prints the mirror's ids one a line on Node 22.13 and later; on older Node nothing, exit 0, nothing on stderr", async () => {
        const root = tempDir('lk-completion-');
        try {
          makeMirror(join(root, 'data'), 'work');
          const env = { LK_DATA_DIR: join(root, 'data'), LK_PROFILE: 'work', LK_CONFIG_DIR: join(root, 'config') };
          const entries = await runLk(['completion', '--ids', 'entries'], { env });
          expect(entries).toMatchObject({ code: 0, stderr: '' });
          expect(entries.stdout).toBe(hasSqlite() ? MIRROR_ENTRIES.map((id) => `${id}\n`).join('') : '');
          const lists = await runLk(['completion', '--ids', 'lists'], { env });
          expect(lists).toMatchObject({ code: 0, stderr: '', stdout: hasSqlite() ? 'l7\nl8\n' : '' });
        } finally {
          rmSync(root, { recursive: true, force: true });
        }
      });

      it('a missing mirror, a damaged file, an unknown kind: nothing, exit 0, quietly', async () => {
        const root = tempDir('lk-completion-');
        try {
          const env = { LK_DATA_DIR: join(root, 'data'), LK_CONFIG_DIR: join(root, 'config') };
          expect(await runLk(['completion', '--ids', 'entries'], { env })).toMatchObject({ code: 0, stdout: '', stderr: '' });
          mkdirSync(join(root, 'data'));
          writeFileSync(join(root, 'data', 'default.db'), 'not a database');
          expect(await runLk(['completion', '--ids', 'entries'], { env })).toMatchObject({ code: 0, stdout: '', stderr: '' });
          expect(await runLk(['completion', '--ids', 'secrets'], { env })).toMatchObject({ code: 0, stdout: '', stderr: '' });
        } finally {
          rmSync(root, { recursive: true, force: true });
        }
      });

      it('--setting-values prints the values of a setting, nothing for a free or unknown one', async () => {
        expect((await runLk(['completion', '--setting-values', 'lang'])).stdout).toBe(LANGS.map((lang) => `${lang}\n`).join(''));
        expect(await runLk(['completion', '--setting-values', 'timeout'])).toMatchObject({ code: 0, stdout: '' });
        expect(await runLk(['completion', '--setting-values', 'nope'])).toMatchObject({ code: 0, stdout: '' });
      });
    });
  }
  if (part === 'general') {
    describe('installed as docs/install.md says', () => {
      let home: CompletionHome;
      beforeAll(() => {
        home = completionHome();
      });
      afterAll(() => rmSync(home.root, { recursive: true, force: true }));

      describeWith(['bash', 'bash-completion'], 'with bash-completion', () => {
        it('bash-completion loads lk.bash from ~/.local/share/bash-completion/completions on demand', () => {
          const script = `
          source /usr/share/bash-completion/bash_completion
          complete -p lk 2>/dev/null && exit 3   # not loaded before it is needed
          __load_completion lk && complete -p lk`;
          expect(run('bash', ['--norc', '--noprofile', '-c', script], home.env).trim()).toBe('complete -F _lk lk');
        });
      });

      describeWith(['zsh'], 'in zsh', () => {
        it('zsh can also source the script after compinit (source <(lk completion zsh))', () => {
          // compinit from a dump of zsh's own functions (no lk in it), then the script sourced.
          const script = `autoload -Uz compinit && compinit -u -C -d "$LK_TEST_ZCOMPDUMP" && source ${JSON.stringify(join(home.root, 'zsh-functions/_lk'))} && print -r -- $_comps[lk]`;
          expect(run('zsh', ['-f', '-c', script], { ...home.env, LK_TEST_ZCOMPDUMP: zshCompdump(home, true) }).trim()).toBe('_lk');
        });
      });
    });
  }
}
