import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProgram } from '../../src/cli.js';
import { freePort } from '../support/ports.js';
import { tempDir } from '../support/temp-dir.js';
import { CRONTAB, SILENT_SYSTEMCTL, standIn } from '../support/schedule-stand-ins.js';
import { startTestBed, tempHome, type TestBed } from './harness.js';
import type { FaultOptions } from '../../src/sandbox/faults.js';
import { hasSqlite, itWithSqlite } from '../support/sqlite-node.js';

// Issue 35: every command, every global output flag: honoured or refused (exit 2, one line naming the flag and the
// command, before any request). None silently ignored.

/** What each kind of result takes, as CLI.md says it: the test's own statement, not the code's declarations. */
const DATA_FORMATS = ['table', 'json', 'ndjson', 'csv', 'tsv'];
interface Kind {
  formats: string[];
  fields: boolean;
  jq: boolean;
  header: boolean;
  csvSafe: boolean;
}
const DATA: Kind = { formats: DATA_FORMATS, fields: true, jq: true, header: true, csvSafe: true };
const TEXT: Kind = { formats: [], fields: false, jq: false, header: false, csvSafe: false };
const KINDS = {
  data: DATA,
  calendar: { ...DATA, formats: [...DATA_FORMATS, 'ics'] },
  'config list': { ...DATA, jq: false },
  'auth status': DATA,
  checks: { formats: ['table', 'json'], fields: false, jq: true, header: false, csvSafe: false },
  screen: { formats: ['table', 'json'], fields: true, jq: true, header: false, csvSafe: false },
  // lk notify's JSON is an array of messages: --fields is refused (it would pick from the array as one object).
  notify: { formats: ['table', 'json'], fields: false, jq: true, header: false, csvSafe: false },
  text: TEXT,
  api: { formats: ['json'], fields: false, jq: true, header: false, csvSafe: false },
  export: { formats: ['json', 'csv'], fields: false, jq: true, header: true, csvSafe: true },
  feed: { formats: ['atom', 'json'], fields: false, jq: false, header: false, csvSafe: false },
  report: { formats: ['json'], fields: false, jq: false, header: false, csvSafe: false },
  sandbox: { formats: ['json'], fields: false, jq: false, header: false, csvSafe: false },
} satisfies Record<string, Kind>;

let bed: TestBed;
let dir: string;
let entry: string;
let list: string;
const db = () => join(dir, 'mirror.db');
const exported = () => join(dir, 'export.json');
const keyFile = () => join(dir, 'key');

/** Every command path of the tree, with a command line that runs it against the bed, and the kind it prints. */
const PATHS: Record<
  string,
  { args: () => string[]; kind: keyof typeof KINDS; mirror?: boolean; input?: () => string; env?: () => Record<string, string | undefined> }
> = {
  'auth login': { args: () => ['auth', 'login', '--with-key'], kind: 'text', input: () => bed.sandbox.key('full') },
  'auth status': { args: () => ['auth', 'status'], kind: 'auth status' },
  'auth switch': { args: () => ['auth', 'switch', 'default'], kind: 'text' },
  'auth token': { args: () => ['auth', 'token'], kind: 'text' },
  'auth logout': { args: () => ['auth', 'logout'], kind: 'text' },
  whoami: { args: () => ['whoami'], kind: 'data' },
  'library list': { args: () => ['library', '--limit', '3'], kind: 'data' },
  'library show': { args: () => ['library', 'show', entry], kind: 'data' },
  'library history': { args: () => ['library', 'history', entry], kind: 'data' },
  history: { args: () => ['history', '--limit', '3'], kind: 'data' },
  'lists list': { args: () => ['lists'], kind: 'data' },
  'lists show': { args: () => ['lists', 'show', list], kind: 'data' },
  calendar: { args: () => ['calendar'], kind: 'calendar' },
  stats: { args: () => ['stats'], kind: 'data' },
  reviews: { args: () => ['reviews', '--limit', '3'], kind: 'data' },
  'profile show': { args: () => ['profile'], kind: 'data' },
  'profile achievements': { args: () => ['profile', 'achievements', '--limit', '3'], kind: 'data' },
  notifications: { args: () => ['notifications', '--limit', '3'], kind: 'data' },
  next: { args: () => ['next', '--limit', '3'], kind: 'data' },
  status: { args: () => ['status'], kind: 'screen' },
  diff: { args: () => ['diff', exported(), exported()], kind: 'screen' },
  export: { args: () => ['export'], kind: 'export' },
  convert: { args: () => ['convert', 'yamtrack'], kind: 'text' },
  sync: { args: () => ['sync', '--db', db()], kind: 'text', mirror: true },
  search: { args: () => ['search', 'the', '--db', db()], kind: 'data', mirror: true },
  sql: { args: () => ['sql', 'SELECT id, 1 AS one FROM entries LIMIT 3', '--db', db()], kind: 'data', mirror: true },
  feed: { args: () => ['feed', '--db', db()], kind: 'feed', mirror: true },
  notify: { args: () => ['notify', '--db', db(), '--to', 'ntfy://127.0.0.1:9/lk-matrix', '--dry-run'], kind: 'notify', mirror: true },
  report: { args: () => ['report', '--db', db(), '-o', '-', '--year', '2025'], kind: 'report', mirror: true },
  publish: { args: () => ['publish', `${db()}.site`, '--db', db()], kind: 'text', mirror: true },
  card: { args: () => ['card', '--db', db()], kind: 'text', mirror: true },
  mcp: { args: () => ['mcp'], kind: 'text' },
  serve: { args: () => ['serve', '--port', '0', '--db', db()], kind: 'text', mirror: true },
  open: { args: () => ['open', entry, '--no-browser'], kind: 'text' },
  api: { args: () => ['api', '/v1/me'], kind: 'api' },
  'config list': { args: () => ['config', 'list'], kind: 'config list' },
  'config get': { args: () => ['config', 'get', 'lang'], kind: 'text' },
  'config set': { args: () => ['config', 'set', 'lang', 'en'], kind: 'text' },
  'config unset': { args: () => ['config', 'unset', 'lang'], kind: 'text' },
  // --print: nothing installed (and the crontab and systemctl it would reach are the stand-ins above). A backup job,
  // which any Node runs (sync and notify need node:sqlite). A job's lk reads the key itself: from the file LK_API_KEY_FILE names (a key only in LK_API_KEY is refused).
  'schedule add': {
    args: () => ['schedule', 'add', 'backup', '--dir', join(dir, 'backup'), '--print'],
    kind: 'screen',
    env: () => ({ LK_API_KEY: undefined, LK_API_KEY_FILE: keyFile() }),
  },
  'schedule list': { args: () => ['schedule', 'list'], kind: 'screen' },
  'schedule remove': { args: () => ['schedule', 'remove', 'no-such-job'], kind: 'text' },
  'alias list': { args: () => ['alias', 'list'], kind: 'text' },
  'alias set': { args: () => ['alias', 'set', 'reading', 'library --phase IN_PROGRESS'], kind: 'text' },
  'alias delete': { args: () => ['alias', 'delete', 'reading'], kind: 'text' },
  'extension list': { args: () => ['extension', 'list'], kind: 'text' },
  completion: { args: () => ['completion', 'bash'], kind: 'text' },
  doctor: { args: () => ['doctor'], kind: 'checks' },
  sandbox: { args: () => ['sandbox'], kind: 'sandbox' },
};

/** Each global output flag: how it is typed, and whether a kind takes it. */
const FLAGS: Array<{ args: string[]; takes: (kind: Kind) => boolean; named: RegExp }> = [
  ...[...DATA_FORMATS, 'ics', 'atom'].map((format) => ({
    args: ['--format', format],
    takes: (kind: Kind) => kind.formats.includes(format),
    named: new RegExp(`^lk: --format ${format} `),
  })),
  ...['json', 'ndjson', 'csv', 'tsv'].map((format) => ({
    args: [`--${format}`],
    takes: (kind: Kind) => kind.formats.includes(format),
    named: new RegExp(`^lk: --format ${format} `),
  })),
  { args: ['--fields', 'id'], takes: (kind) => kind.fields, named: /^lk: --fields / },
  { args: ['--jq', '.'], takes: (kind) => kind.jq, named: /^lk: --jq / },
  { args: ['--no-header'], takes: (kind) => kind.header, named: /^lk: --no-header / },
  { args: ['--csv-safe'], takes: (kind) => kind.csvSafe, named: /^lk: --csv-safe / },
];

/** `library list` as help names it. */
function leafPaths(command: Command, prefix: string[] = []): string[] {
  return command.commands.flatMap((sub) =>
    sub.commands.length === 0 ? [[...prefix, sub.name()].join(' ')] : leafPaths(sub, [...prefix, sub.name()]),
  );
}

/** How a refusal names the command: a group's default subcommand by the group (`lk library`). */
function shownPath(path: string): string {
  return `lk ${path.replace(/ (list|show)$/, (word) => (['lists show', 'library show'].includes(path) ? word : ''))}`;
}

/**
 * lk schedule's tools as stand-ins first on PATH: a crontab keeping its table in a temp file and a systemctl whose
 * user manager does not answer. The machine's own crontab and units are never read nor written.
 */
function scheduleStandIns(root: string): Record<string, string> {
  const bin = join(root, 'bin');
  mkdirSync(bin);
  standIn(bin, 'crontab', CRONTAB);
  standIn(bin, 'systemctl', SILENT_SYSTEMCTL);
  return { PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`, XDG_CONFIG_HOME: join(root, 'xdg'), CRONTAB_FILE: join(root, 'crontab.txt') };
}

beforeAll(async () => {
  dir = tempDir('lk-global-flags-');
  bed = await startTestBed({ entries: 60, rateLimit: 0, exportIntervalSeconds: 0, env: scheduleStandIns(dir) });
  entry = bed.sandbox.entryIds('demo')[0]!;
  writeFileSync(keyFile(), `${bed.sandbox.key('full')}\n`, { mode: 0o600 });
  list = (JSON.parse((await bed.lk(['lists', '--json'])).stdout) as Array<{ id: string }>)[0]!.id;
  expect((await bed.lk(['export', '-o', exported()])).code).toBe(0);
  if (hasSqlite) expect((await bed.lk(['sync', '--db', db()])).code).toBe(0);
});

afterAll(async () => {
  await bed.sandbox.close();
});

describe('every command and every global output flag', () => {
  it('the table above names every command path there is, and no other', async () => {
    // `lk help` prints help, not a result: no output flag reaches it.
    expect(Object.keys(PATHS).sort()).toEqual(
      leafPaths(await makeProgram())
        .filter((path) => path !== 'help')
        .sort(),
    );
  });

  for (const [path, { args, kind }] of Object.entries(PATHS)) {
    for (const flag of FLAGS.filter(({ takes }) => !takes(KINDS[kind]))) {
      it(`lk ${path} ${flag.args.join(' ')} is refused: exit 2, one line naming the flag and the command, nothing sent`, async () => {
        bed.sandbox.resetCounters();
        const result = await bed.lk([...args(), ...flag.args]);
        expect(result.code).toBe(2);
        expect(result.stdout).toBe('');
        expect(result.stderr).toMatch(flag.named);
        expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
        const other = flag.args[1] === 'ics' ? 'lk calendar' : flag.args[1] === 'atom' ? 'lk feed' : undefined;
        expect(result.stderr).toContain(other && other !== shownPath(path) ? `is only for ${other}` : `does not apply to ${shownPath(path)}`);
        expect(bed.sandbox.counters.requests).toBe(0);
      });
    }
  }
});

/** The commands whose honoured flags show in what they print (the others hold a server, a terminal or a browser). */
const SHOWN = Object.entries(PATHS).filter(([, { kind }]) => kind !== 'text' && kind !== 'sandbox');

describe('every flag a command takes is honoured: it changes what is printed', () => {
  for (const [path, { args, kind, mirror, env }] of SHOWN) {
    const ran = async (extra: string[]) => {
      const result = await bed.lk([...args(), ...extra], { env: env?.() });
      if (mirror && !hasSqlite) {
        // Without node:sqlite the command runs and says so (exit 1): taken, not refused.
        expect(result.stderr).toMatch(/needs Node 22\.13/);
        return undefined;
      }
      if (kind !== 'checks') expect(result.code).toBe(0);
      return result.stdout;
    };
    it(`lk ${path}: --json is JSON, --fields id and --no-header reshape it, --jq filters it`, async () => {
      const shape = KINDS[kind];
      const plain = await ran([]);
      if (plain === undefined) return;
      // One --json run serves both checks: each run of a mirror command or a report costs what the file's others do.
      const json = shape.formats.includes('json') || shape.fields ? await ran(['--json']) : undefined;
      if (shape.formats.includes('json')) expect(() => JSON.parse(json!)).not.toThrow();
      if (shape.jq) expect((await ran(['--jq', 'type']))!).toMatch(/^"?(object|array)"?\n$/);
      if (shape.fields) expect(await ran(['--json', '--fields', 'id'])).not.toBe(json);
      if (shape.header && shape.formats.includes('csv') && kind !== 'export') {
        // Row by row, not byte for byte: a row may read the rate limit, which each run spends.
        const [header, ...rows] = (await ran(['--csv']))!.trimEnd().split('\n');
        const headless = (await ran(['--csv', '--no-header']))!.trimEnd().split('\n');
        expect(headless).toHaveLength(rows.length);
        expect(headless[0]).not.toBe(header);
      }
    });
  }
});

describe('a screen (lk status, lk diff): --fields asks for its JSON, as --jq does, instead of being ignored', () => {
  it('lk status --fields activity prints that part of the status object only', async () => {
    const result = await bed.lk(['status', '--fields', 'activity']);
    expect(result.code).toBe(0);
    const shown = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(Object.keys(shown)).toEqual(['activity']);
    expect(Object.keys(shown.activity as object).sort()).toEqual(['last30Days', 'last7Days', 'thisYear']);
  });
});

// The connection and terminal flags: each command honours some (its effect seen below, or a reason it cannot be seen
// here) and refuses the others, in one line naming the flag and the command, before any request.

const TERMINAL = ['--no-color', '--no-pager', '--quiet'];
const REQUEST = ['--profile', '--base-url', '--cache', '--timeout', '--max-wait', '--no-wait', '--cacert', '--verbose'];
const TITLED = [...REQUEST, '--lang', ...TERMINAL];
const UNTITLED = [...REQUEST, ...TERMINAL];
const but = (flags: string[], ...left: string[]) => flags.filter((name) => !left.includes(name));

/** What each command path honours, as CLI.md and its help say it: the test's own statement. */
const HONOURS: Record<keyof typeof PATHS, string[]> = {
  'auth login': UNTITLED,
  'auth status': UNTITLED,
  'auth switch': TERMINAL,
  'auth token': ['--profile', ...TERMINAL],
  'auth logout': ['--profile', ...TERMINAL],
  whoami: UNTITLED,
  'library list': TITLED,
  'library show': TITLED,
  'library history': TITLED,
  history: TITLED,
  'lists list': TITLED,
  'lists show': TITLED,
  calendar: TITLED,
  stats: UNTITLED,
  reviews: TITLED,
  'profile show': UNTITLED,
  'profile achievements': UNTITLED,
  notifications: UNTITLED,
  next: TITLED,
  status: TITLED,
  diff: ['--verbose', ...TERMINAL],
  export: but(UNTITLED, '--cache'),
  convert: but(UNTITLED, '--cache'),
  sync: UNTITLED,
  search: ['--profile', '--lang', ...TERMINAL],
  sql: ['--profile', '--timeout', ...TERMINAL],
  feed: ['--profile', ...TERMINAL],
  notify: ['--profile', '--timeout', '--max-wait', '--no-wait', '--cacert', '--verbose', ...TERMINAL],
  report: ['--profile', ...TERMINAL],
  // --base-url is the site's address there (CLI.md), not the instance's.
  publish: ['--profile', '--base-url', ...TERMINAL],
  card: ['--profile', ...TERMINAL],
  mcp: ['--profile', '--timeout', ...TERMINAL],
  serve: ['--profile', ...TERMINAL],
  open: UNTITLED,
  api: UNTITLED,
  'config list': TERMINAL,
  'config get': TERMINAL,
  'config set': TERMINAL,
  'config unset': TERMINAL,
  'schedule add': ['--profile', '--base-url', ...TERMINAL],
  'schedule list': ['--profile', ...TERMINAL],
  'schedule remove': ['--profile', ...TERMINAL],
  'alias list': TERMINAL,
  'alias set': TERMINAL,
  'alias delete': TERMINAL,
  'extension list': TERMINAL,
  completion: TERMINAL,
  doctor: but(UNTITLED, '--cache', '--max-wait', '--no-wait'),
  sandbox: TERMINAL,
};

/** A command's own flag that changes what it honours: the run with it, as the refusal names it, and what it honours. */
const MODES: Record<string, { args: () => string[]; honours: string[] }> = {
  'library --offline': { args: () => ['library', '--offline', '--limit', '3', '--db', db()], honours: ['--profile', '--lang', ...TERMINAL] },
  'stats --offline': { args: () => ['stats', '--offline', '--db', db()], honours: ['--profile', ...TERMINAL] },
  'status --offline': { args: () => ['status', '--offline', '--db', db()], honours: ['--profile', '--lang', ...TERMINAL] },
  'mcp --live': { args: () => ['mcp', '--live'], honours: ['--profile', ...UNTITLED] },
  'feed --sync': { args: () => ['feed', '--sync', '--db', db()], honours: UNTITLED },
  'notify --sync': { args: () => ['notify', '--sync', '--db', db(), '--to', 'ntfy://127.0.0.1:9/lk-matrix', '--dry-run'], honours: UNTITLED },
};

/** Each flag as typed, with a value it takes. */
const RUN_FLAGS: Record<string, () => string[]> = {
  '--profile': () => ['--profile', 'lk-matrix'],
  '--base-url': () => ['--base-url', bed.sandbox.url],
  '--lang': () => ['--lang', 'fr'],
  '--cache': () => ['--cache', '1h'],
  '--timeout': () => ['--timeout', '20'],
  '--max-wait': () => ['--max-wait', '10'],
  '--no-wait': () => ['--no-wait'],
  '--cacert': () => ['--cacert', join(dir, 'no-such-ca.pem')],
  '--verbose': () => ['-v'],
  '--no-color': () => ['--no-color'],
  '--no-pager': () => ['--no-pager'],
  '--quiet': () => ['-q'],
};

/** How a refusal names the command: lk config's older sentence for --profile, else `--x does not apply to lk y`. */
function refusalOf(flag: string, shown: string): RegExp {
  const escaped = shown.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
  if (flag === '--profile' && shown.startsWith('lk config ') && shown !== 'lk config list') {
    return new RegExp(`^lk: ${escaped} changes the defaults of every profile: --profile does not apply\\n`);
  }
  if (flag === '--profile' && (shown === 'lk alias set' || shown === 'lk alias delete')) {
    return new RegExp(`^lk: ${escaped} changes the aliases of every profile: --profile does not apply\\n`);
  }
  return new RegExp(`^lk: ${flag} does not apply to ${escaped}( \\(.+\\))?\\n`);
}

describe('every command and every connection and terminal flag: refused when not honoured', () => {
  it('the table of what each path honours names every path', () => {
    expect(Object.keys(HONOURS).sort()).toEqual(Object.keys(PATHS).sort());
  });

  const cases = [
    ...Object.entries(PATHS).map(([path, { args }]) => ({ run: path, args, shown: shownPath(path), honours: HONOURS[path]! })),
    ...Object.entries(MODES).map(([run, { args, honours }]) => ({ run, args, shown: `lk ${run}`, honours })),
  ];
  for (const { run, args, shown, honours } of cases) {
    for (const flag of Object.keys(RUN_FLAGS).filter((name) => !honours.includes(name))) {
      it(`lk ${run} ${flag} is refused: exit 2, one line naming the flag and the command, nothing sent`, async () => {
        bed.sandbox.resetCounters();
        const result = await bed.lk([...args(), ...RUN_FLAGS[flag]!()]);
        expect(result.code).toBe(2);
        expect(result.stdout).toBe('');
        expect(result.stderr).toMatch(refusalOf(flag, shown));
        // lk config's older refusal keeps its hint line.
        expect(result.stderr.trimEnd().split('\n')).toHaveLength(refusalOf(flag, shown).source.includes('changes the defaults') ? 2 : 1);
        expect(bed.sandbox.counters.requests).toBe(0);
      });
    }
  }
});

/** Paths that run until stopped (a server, the MCP stdio): only what happens before they start is seen here. */
const HOLDS: Record<string, string> = {
  serve: 'serves until stopped: its mirror (--profile) and -q are shown in test/mirror/serve*.test.ts',
  mcp: 'serves stdio until stopped: its mirror (--profile) and query bound (--timeout) are shown in test/mirror/mcp*.test.ts',
  sandbox: 'serves until stopped: nothing of a profile, no request of its own',
};

/**
 * Why a flag a path honours shows no effect in the run below: the one place a honoured flag may go unseen. A reason
 * that is not needed (the effect is seen) fails too, so the table stays true.
 */
const UNSEEN: Record<string, string> = {
  'publish --base-url': "names the site's address in the feeds it writes (test/mirror/publish.test.ts shows it): the same files are listed",
  'publish --no-pager': 'lists the files it wrote, fewer than a screen in the test home: nothing to page',
  'card --quiet': 'prints the SVG: nothing on stderr to silence',
  'auth login --no-pager': 'says what it did on stderr: nothing on stdout to page',
  'auth status --quiet': 'a refused request is its report, not a note: nothing on stderr to silence',
  'auth switch --no-pager': 'says what it did on stderr: nothing on stdout to page',
  'auth switch --quiet': 'its one line on stderr is its answer: kept with -q',
  'auth token --no-pager': 'refuses to show the key on a terminal: nothing paged',
  'auth token --quiet': 'prints the key: nothing on stderr to silence',
  'auth logout --quiet': 'its note goes, but the warning that LK_API_KEY is still set stays (warnings survive -q)',
  'auth logout --no-pager': 'says what it did on stderr: nothing on stdout to page',
  'sync --no-pager': 'says what it did on stderr: nothing on stdout to page',
  'lists list --lang': 'lists show their names: the titles --lang changes are in lk lists show',
  'reviews --lang': 'the first reviews of the demo account are of no film or series (lk library shows it)',
  'sql --timeout': 'bounds the query, not a request: test/mirror/sql-safety.test.ts shows --timeout 1 ending a runaway query',
  'config list --no-pager': 'never pages (lk config works while the config file is broken, pager setting included)',
  'config get --no-pager': 'never pages (lk config works while the config file is broken, pager setting included)',
  'config set --no-pager': 'never pages (lk config works while the config file is broken, pager setting included)',
  'config unset --no-pager': 'never pages (lk config works while the config file is broken, pager setting included)',
  'config get --quiet': 'prints the value: nothing on stderr to silence',
  'config list --quiet': 'prints the settings: nothing on stderr to silence',
  'schedule add --base-url': "its job's lk reaches the instance later: the line names it (test/e2e/schedule.test.ts)",
  'schedule add --quiet': 'prints what it would install: nothing on stderr to silence',
  'schedule list --profile': "lists every profile's jobs: test/e2e/schedule.test.ts shows two profiles' sync",
  'schedule list --quiet': 'prints the jobs: nothing on stderr to silence',
  'schedule remove --profile': 'a job lk does not know is refused before any profile is read (test/e2e/schedule.test.ts removes per profile)',
  'schedule remove --no-pager': 'says what it did on stderr: nothing on stdout to page',
  'schedule remove --quiet': 'a job lk does not know: its error is no note, kept with -q',
  'alias list --no-pager': 'no alias in the test home: nothing on stdout to page',
  'alias set --no-pager': 'says what it did on stderr: nothing on stdout to page',
  'alias delete --no-pager': 'says what it did on stderr: nothing on stdout to page',
  'alias delete --quiet': 'no alias of that name in the test home: its error is no note, kept with -q',
  'extension list --no-pager': 'no extension on the test PATH: nothing on stdout to page',
  'completion --no-pager': 'never pages (it never reads the config file)',
  'completion --quiet': 'prints the script: nothing on stderr to silence',
  'diff --verbose': 'two equal exports: no difference to show more of (test/e2e/diff.test.ts)',
  'diff --quiet': 'prints the comparison: nothing on stderr to silence',
  'doctor --quiet': 'a probe never waits: nothing on stderr to silence',
  'search --quiet': "a fresh mirror's age is a terminal's note, in a pipe only a week on (test/mirror/mirror.test.ts): nothing to silence",
  'sql --quiet': "a fresh mirror's age is a terminal's note, in a pipe only a week on (test/mirror/mirror.test.ts): nothing to silence",
  'notify --timeout': 'bounds the requests to the targets, not to the sandbox: test/mirror/notify.test.ts shows a stalled target failed',
  'notify --max-wait': "bounds a target's 429, not the sandbox's: test/mirror/notify.test.ts shows a longer Retry-After failing the target",
  'notify --no-wait': "a target's 429 fails it at once: test/mirror/notify.test.ts shows it",
  'notify --verbose': 'a line per message a target took: test/mirror/notify.test.ts shows them (a dry run sends nothing)',
  'notify --quiet': "a target's 429 wait is the note it silences: test/mirror/notify.test.ts shows it",
  'report --quiet': "a fresh mirror's age is a terminal's note, in a pipe only a week on (test/mirror/mirror.test.ts): nothing to silence",
};

/** A fresh config, cache and data folder for one observation, so that no run sees another's state. */
function freshEnv(): Record<string, string> {
  const home = tempHome();
  return { LK_CONFIG_DIR: home.configDir, LK_CACHE_DIR: home.cacheDir, LK_DATA_DIR: join(home.root, 'data') };
}

type Row = { args: () => string[]; input?: () => string; env?: () => Record<string, string | undefined> };
type Run = (extra: string[], options?: Parameters<TestBed['lk']>[1]) => ReturnType<TestBed['lk']>;

interface Observation {
  /** Whether the flag's effect is seen in this path's run (asserting what it can while looking). */
  seen: (run: Run, row: Row) => Promise<boolean>;
  /** The sandbox's faults while it looks. */
  faults?: FaultOptions;
  /** It reads the sandbox's request counters: one path at a time. The others look at every path at once. */
  alone?: boolean;
}

const OBSERVE: Record<string, Observation> = {
  // Without a key in the environment, the profile named is the one read: its name shows in what is said.
  '--profile': {
    seen: async (_run, row) => {
      const args = row.args().filter((word, index, all) => word !== '--db' && all[index - 1] !== '--db');
      const result = await bed.lk([...args, '--profile', 'lk-matrix'], { key: null, ...inputOf(row), env: { ...freshEnv(), ...row.env?.() } });
      return `${result.stdout}${result.stderr}`.includes('lk-matrix');
    },
  },
  // An instance on a dead port: nothing reaches the sandbox, and the run fails saying so.
  '--base-url': {
    alone: true,
    seen: async (run) => {
      bed.sandbox.resetCounters();
      const result = await run(['--base-url', `http://127.0.0.1:${await freePort()}`]);
      expect(bed.sandbox.counters.requests).toBe(0);
      return result.code !== 0 && result.code !== 2 && /127\.0\.0\.1/.test(result.stdout + result.stderr);
    },
  },
  '--lang': { seen: async (run) => (await run(['--lang', 'fr'])).stdout !== (await run([])).stdout },
  // A run within the duration is answered from the cache: fewer requests than the one before (lk sync's second run
  // reads the endpoints instead of the export, its third has them cached).
  '--cache': {
    alone: true,
    seen: async (run) => {
      const env = freshEnv();
      const sent: number[] = [];
      for (let index = 0; index < 3; index++) {
        bed.sandbox.resetCounters();
        await run(['--cache', '1h'], { env });
        sent.push(bed.sandbox.counters.requests);
      }
      return sent[0]! > 0 && (sent[1]! < sent[0]! || sent[2]! < sent[1]!);
    },
  },
  // Answers slower than the bound fail the run.
  '--timeout': {
    faults: { latencyMs: 400 },
    seen: async (run) => {
      const result = await run(['--timeout', '0.1']);
      return result.code !== 0 && result.code !== 2 && /timed out/.test(result.stdout + result.stderr);
    },
  },
  // A rate limit that asks for a longer wait than allowed (or any wait, --no-wait) fails at once.
  '--max-wait': { alone: true, faults: { rate429: 1, retryAfter429: 30 }, seen: (run) => givesUpSooner(run, ['--max-wait', '5']) },
  '--no-wait': { alone: true, faults: { rate429: 1, retryAfter429: 1 }, seen: (run) => givesUpSooner(run, ['--no-wait']) },
  // The file is read: one it cannot use is said by name (TLS itself: test/e2e/tls.test.ts).
  '--cacert': {
    seen: async (run) => {
      const result = await run(['--cacert', join(dir, 'no-such-ca.pem')]);
      return result.code !== 0 && (result.stdout + result.stderr).includes('no-such-ca.pem') && !/does not apply/.test(result.stderr);
    },
  },
  '--verbose': { seen: async (run) => /^lk: GET \/v1\/\S* → \d{3} in \d+ ms/m.test((await run(['-v'])).stderr) },
  // The `lk:` lines are painted on a colour terminal, and not with --no-color.
  '--no-color': {
    seen: async (run) => {
      const painted = (flags: string[]) =>
        run(['--lk-matrix-no-such-flag', ...flags], { env: { FORCE_COLOR: '1' }, tty: { columns: 80 } }).then((result) =>
          /\x1b\[/.test(result.stderr),
        );
      return (await painted([])) && !(await painted(['--no-color']));
    },
  },
  // On a terminal one line tall, the output goes to the pager; with --no-pager, to the terminal.
  '--no-pager': {
    seen: async (run) => {
      const pagerDir = tempDir('lk-matrix-pager-');
      const pager = (name: string) => ({ env: { LK_PAGER: `cat > '${join(pagerDir, name)}'` }, tty: { columns: 80, rows: 1, stderr: false } });
      await run([], pager('paged'));
      const direct = await run(['--no-pager'], pager('direct'));
      return existsSync(join(pagerDir, 'paged')) && !existsSync(join(pagerDir, 'direct')) && direct.stdout !== '';
    },
  },
  // Notes leave stderr (a rate limit's waits, the mirror's age), errors stay; the outcome is the same.
  '--quiet': {
    faults: { rate429: 1, retryAfter429: 1 },
    seen: async (run) => {
      const plain = await run([]);
      const quiet = await run(['-q']);
      expect(quiet.code).toBe(plain.code);
      // The error and its hint stay with -q: what is left are the notes.
      const notes = (stderr: string) =>
        stderr.split('\n').filter((line) => line !== '' && !/^lk: rate limited /.test(line) && !/^Try again /.test(line));
      return notes(plain.stderr).length > 0 && notes(quiet.stderr).length === 0;
    },
  },
};

/** The run with `flags` gives up on a rate limit sooner than the same run without them (which waits it out, on the bed's clock). */
async function givesUpSooner(run: Run, flags: string[]): Promise<boolean> {
  // Each run's own requests, told by its LK_DEBUG lines: the sandbox's counters also count what earlier observations
  // sent and a loaded machine delivers late (the --timeout runs' retries), which made this fail under load.
  const requests = (stderr: string) => stderr.split('\n').filter((line) => /^lk: GET /.test(line)).length;
  const result = await run(flags, { env: { LK_DEBUG: '1' } });
  const plain = await run([], { env: { LK_DEBUG: '1' } });
  return result.code !== 0 && requests(result.stderr) > 0 && requests(result.stderr) < requests(plain.stderr);
}

function inputOf(row: Row): { input?: string } {
  return row.input ? { input: row.input() } : {};
}

function runOf(row: Row): Run {
  return (extra, options = {}) =>
    bed.lk([...row.args(), ...extra], { ...inputOf(row), ...options, env: { ...freshEnv(), ...row.env?.(), ...options.env } });
}

async function withFaults<T>(faults: FaultOptions | undefined, work: () => Promise<T>): Promise<T> {
  bed.sandbox.faults = faults ?? {};
  try {
    return await work();
  } finally {
    bed.sandbox.faults = {};
  }
}

/** Paths whose effect of `flag` this file looks for: honoured, not a server, the mirror readable on this Node. */
const observable = (flag: string) =>
  Object.entries(PATHS).filter(
    ([path, { mirror }]) => HONOURS[path]!.includes(flag) && (HOLDS[path] === undefined || flag === '--no-color') && (!mirror || hasSqlite),
  );

/** Every path's observation of one flag, made together the first time a test asks (waits overlap: the file stays fast). */
const looked = new Map<string, Promise<Map<string, PromiseSettledResult<boolean>>>>();

function seen(flag: string, path: string): Promise<boolean> {
  const observation = OBSERVE[flag]!;
  if (observation.alone) return withFaults(observation.faults, () => observation.seen(runOf(PATHS[path]!), PATHS[path]!));
  let all = looked.get(flag);
  if (!all) {
    const paths = observable(flag);
    all = withFaults(observation.faults, async () => {
      const results = await Promise.allSettled(paths.map(([, row]) => observation.seen(runOf(row), row)));
      return new Map(paths.map(([name], index) => [name, results[index]!]));
    });
    looked.set(flag, all);
  }
  return all.then((results) => {
    const result = results.get(path)!;
    if (result.status === 'rejected') throw result.reason;
    return result.value;
  });
}

describe('every connection and terminal flag a command honours changes what it does', () => {
  for (const [path, row] of Object.entries(PATHS)) {
    for (const flag of HONOURS[path]!) {
      const key = `${path} ${flag}`;
      const holds = HOLDS[path] !== undefined && flag !== '--no-color';
      // A mirror command shows its flags where node:sqlite is; on an older Node the test is skipped, and counted.
      (row.mirror ? itWithSqlite : it)(`lk ${key}: ${holds ? HOLDS[path] : (UNSEEN[key] ?? 'its effect is seen')}`, async () => {
        if (holds) return;
        if (UNSEEN[key] === undefined) expect(await seen(flag, path), `${key}: its effect was not seen, and UNSEEN gives no reason`).toBe(true);
        else expect(await seen(flag, path), `${key}: its effect was seen: drop its reason from UNSEEN`).toBe(false);
      });
    }
  }
});
