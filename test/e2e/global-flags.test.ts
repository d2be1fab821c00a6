import { join } from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProgram } from '../../src/cli.js';
import { nodeHasSqlite } from '../../src/mirror/open.js';
import { tempDir } from '../support/temp-dir.js';
import { startTestBed, type TestBed } from './harness.js';

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

/** Every command path of the tree, with a command line that runs it against the bed, and the kind it prints. */
const PATHS: Record<string, { args: () => string[]; kind: keyof typeof KINDS; mirror?: boolean }> = {
  'auth login': { args: () => ['auth', 'login', '--with-key'], kind: 'text' },
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
  report: { args: () => ['report', '--db', db(), '-o', '-', '--year', '2025'], kind: 'report', mirror: true },
  mcp: { args: () => ['mcp'], kind: 'text' },
  serve: { args: () => ['serve', '--port', '0', '--db', db()], kind: 'text', mirror: true },
  open: { args: () => ['open', entry, '--no-browser'], kind: 'text' },
  api: { args: () => ['api', '/v1/me'], kind: 'api' },
  'config list': { args: () => ['config', 'list'], kind: 'config list' },
  'config get': { args: () => ['config', 'get', 'lang'], kind: 'text' },
  'config set': { args: () => ['config', 'set', 'lang', 'en'], kind: 'text' },
  'config unset': { args: () => ['config', 'unset', 'lang'], kind: 'text' },
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

beforeAll(async () => {
  bed = await startTestBed({ entries: 60, rateLimit: 0 });
  dir = tempDir('lk-global-flags-');
  entry = bed.sandbox.entryIds('demo')[0]!;
  list = (JSON.parse((await bed.lk(['lists', '--json'])).stdout) as Array<{ id: string }>)[0]!.id;
  expect((await bed.lk(['export', '-o', exported()])).code).toBe(0);
  if (nodeHasSqlite()) expect((await bed.lk(['sync', '--db', db()])).code).toBe(0);
});

afterAll(async () => {
  await bed.sandbox.close();
});

describe('every command and every global output flag', () => {
  it('the table above names every command path there is, and no other', () => {
    // `lk help` prints help, not a result: no output flag reaches it.
    expect(Object.keys(PATHS).sort()).toEqual(
      leafPaths(makeProgram())
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
  for (const [path, { args, kind, mirror }] of SHOWN) {
    const ran = async (extra: string[]) => {
      const result = await bed.lk([...args(), ...extra]);
      if (mirror && !nodeHasSqlite()) {
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
      if (shape.formats.includes('json')) {
        const json = (await ran(['--json']))!;
        expect(() => JSON.parse(json)).not.toThrow();
      }
      if (shape.jq) expect((await ran(['--jq', 'type']))!).toMatch(/^"?(object|array)"?\n$/);
      if (shape.fields) expect(await ran(['--json', '--fields', 'id'])).not.toBe(await ran(['--json']));
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
