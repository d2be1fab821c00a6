import { spawn } from 'node:child_process';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { columnsOf } from '../../src/output/formats/fields.js';
import { displayWidth } from '../../src/output/terminal/width.js';
import { sendJson, startFakeApi, type FakeApi } from './fake-api.js';
import { lkShellCommand, lkSpawnArgs, outputOf, runLkInProcess, startTestBed, tempHome, type RunResult, type TestBed } from './harness.js';
import { describeWith } from '../support/outside-tools.js';

const FAKE_KEY = `lk_${'Q'.repeat(43)}abc123`;
const ANSI = /\u001b\[[0-9;]*m/g;

let bed: TestBed;
/** The whole library as JSON, newest first, and its leaf paths: what csv must cover. */
let library: Array<{ id: string; work: { title: string }; progress?: { pages?: number } | null }>;
let libraryPaths: string[];

beforeAll(async () => {
  bed = await startTestBed({ entries: 250, rateLimit: 0 });
  library = JSON.parse((await bed.lk(['library', '--all', '--json'])).stdout) as typeof library;
  libraryPaths = columnsOf(library);
});

afterAll(async () => {
  await bed.sandbox.close();
});

function fakeEnv(api: FakeApi): Record<string, string> {
  const home = tempHome();
  return { LK_BASE_URL: api.url, LK_API_KEY: FAKE_KEY, LK_CONFIG_DIR: home.configDir, LK_CACHE_DIR: home.cacheDir };
}

/**
 * Runs lk in a real pseudo-terminal (util-linux `script`) of the given width: stdout and stderr are both the
 * terminal, as for a person typing the command. Returns what the terminal received, \r\n turned back into \n.
 */
async function lkInPty(args: string[], columns = 80, env: Record<string, string | undefined> = bed.env()): Promise<RunResult> {
  const command = `stty cols ${columns} rows 50; exec ${lkShellCommand(args)}`;
  // No pager: these tests read the whole output (the pager's own tests are in terminal.test.ts).
  const fullEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    SHELL: '/bin/sh',
    TERM: 'xterm-256color',
    LK_PAGER: 'cat',
  };
  for (const [name, value] of Object.entries(env)) if (value !== undefined) fullEnv[name] = value;
  const child = spawn('script', ['-qec', command, '/dev/null'], { env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  const { code, stdout, stderr } = await outputOf(child);
  return { code, stdout: stdout.replace(/\r\n/g, '\n'), stderr };
}

describe('csv and tsv columns while streaming', () => {
  it('--all --limit 3 --csv: every field of the library is a column or named in one warning on stderr', async () => {
    const result = await bed.lk(['library', '--all', '--limit', '3', '--csv']);
    expect(result.code).toBe(0);
    const records = parse(result.stdout) as string[][];
    const header = records[0]!;
    const rows = parse(result.stdout, { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((row) => row.id)).toEqual(library.map((entry) => entry.id));
    const warnings = result.stderr.match(/^lk: warning: .*$/gm) ?? [];
    expect(warnings).toHaveLength(1);
    const warning = warnings[0]!;
    expect(result.stderr).toMatch(/--fields/);
    expect(result.stderr).toMatch(/--json/);
    for (const path of libraryPaths) {
      if (!header.includes(path)) expect(warning, `${path} is neither a column nor in the warning`).toContain(path);
    }
    // The view's known fields are columns from the start, whatever the first three entries are: a book's pages survive.
    expect(header).toEqual(expect.arrayContaining(['progress.episodes', 'progress.pages', 'progress.minutes']));
    const book = library.findIndex((entry) => typeof entry.progress?.pages === 'number');
    expect(book).toBeGreaterThanOrEqual(0);
    expect(rows[book]!['progress.pages']).toBe(String(library[book]!.progress!.pages));
  });

  it('the warning is not dropped by -q: a cron backup missing data must say so', async () => {
    const result = await bed.lk(['library', '--all', '--limit', '3', '--tsv', '-q']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^lk: warning: left out fields the tsv header lacks/m);
  });

  it('with --all (pages of 100) the sandbox library gives every column, and no warning', async () => {
    const result = await bed.lk(['library', '--all', '--csv']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const header = (parse(result.stdout) as string[][])[0]!;
    expect(header).toEqual(expect.arrayContaining(libraryPaths));
    const rows = parse(result.stdout, { columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(library.length);
  });

  it('--fields names the columns: nothing to warn about', async () => {
    const result = await bed.lk(['library', '--all', '--limit', '3', '--csv', '--fields', 'id,work.title']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n')[0]).toBe('id,work.title');
  });
});

describe("pipe output shows the table's columns with exact values", () => {
  const pipeRows = (stdout: string) =>
    stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t'));

  it('lk history: the Detail column holds S01E02, minutes or pages, as in the table', async () => {
    const events = JSON.parse((await bed.lk(['history', '--limit', '40', '--json'])).stdout) as Array<Record<string, unknown>>;
    const result = await bed.lk(['history', '--limit', '40']);
    expect(result.code).toBe(0);
    const rows = pipeRows(result.stdout);
    expect(rows).toHaveLength(events.length);
    rows.forEach((row, i) => {
      const event = events[i]!;
      expect(row).toHaveLength(5);
      expect(row[0]).toBe(event.date);
      expect(row[1]).toBe(event.kind);
      if (typeof event.season === 'number') {
        expect(row[3]).toBe(`S${String(event.season).padStart(2, '0')}E${String(event.episode).padStart(2, '0')}`);
      } else if (typeof event.minutes === 'number') {
        expect(row[3]).toBe(`${event.minutes} min`);
      } else if (typeof event.pages === 'number') {
        expect(row[3]).toBe(`${event.pages} p`);
      }
    });
    expect(rows.some((row) => /^S\d\dE\d\d$/.test(row[3]!))).toBe(true);
    expect(rows.every((row) => row[3] !== '')).toBe(true);
  });

  it('lk notifications: the Kind column finds `kind` when there is no `type`', async () => {
    const items = JSON.parse((await bed.lk(['notifications', '--limit', '10', '--json'])).stdout) as Array<{ kind: string; type?: string }>;
    expect(items.every((item) => item.type === undefined && typeof item.kind === 'string')).toBe(true);
    const rows = pipeRows((await bed.lk(['notifications', '--limit', '10'])).stdout);
    expect(rows.map((row) => row[1])).toEqual(items.map((item) => item.kind));
  });

  it("lk calendar: Episode is S01E02, Airs the server's exact time", async () => {
    const items = JSON.parse((await bed.lk(['calendar', '--json'])).stdout) as Array<{ airsAt: string; season: number; episode: number }>;
    expect(items.length).toBeGreaterThan(0);
    const rows = pipeRows((await bed.lk(['calendar'])).stdout);
    expect(rows).toHaveLength(items.length);
    rows.forEach((row, i) => {
      expect(row[0]).toBe(items[i]!.airsAt);
      expect(row[2]).toBe(`S${String(items[i]!.season).padStart(2, '0')}E${String(items[i]!.episode).padStart(2, '0')}`);
    });
  });
});

describeWith(['script'], 'the "Showing N of TOTAL" hint, in a real terminal', () => {
  const hint = (result: RunResult) => result.stdout.match(/^Showing .*$/m)?.[0];

  it('after --max 3 it names --limit 3, and that page holds entries 4 to 6', async () => {
    const result = await lkInPty(['library', '--max', '3']);
    expect(result.code).toBe(0);
    expect(hint(result)).toBe('Showing 3 of 250 entries — next: --limit 3 --page 2, all: --all');
    const next = JSON.parse((await bed.lk(['library', '--limit', '3', '--page', '2', '--json'])).stdout) as Array<{ id: string }>;
    expect(next.map((entry) => entry.id)).toEqual(library.slice(3, 6).map((entry) => entry.id));
  });

  it('after --max cut a page short (--limit 5 --all --max 7) it suggests no --page', async () => {
    const result = await lkInPty(['library', '--limit', '5', '--all', '--max', '7']);
    expect(result.code).toBe(0);
    expect(hint(result)).toBe('Showing 7 of 250 entries — --all for every entry, or a larger --max');
  });

  it('with the default page size it says only --page 2; --limit 5 --page 3 leads on to --limit 5 --page 4', async () => {
    expect(hint(await lkInPty(['library']))).toBe('Showing 20 of 250 entries — --all for every entry, --page 2 for the next');
    expect(hint(await lkInPty(['library', '--limit', '5', '--page', '3']))).toBe('Showing 5 of 250 entries — next: --limit 5 --page 4, all: --all');
  });

  it('shortens its wording rather than wrap: at 80 columns the long one would', async () => {
    const result = await bed.lk(['library', '--limit', '5', '--page', '3'], { tty: { columns: 50 } });
    expect(result.stderr).toBe('5 of 250 entries · --limit 5 --page 4 · --all\n');
  });

  it("uses the listing's own noun: events for history", async () => {
    expect(hint(await lkInPty(['history', '--max', '4']))).toMatch(/^Showing 4 of [\d,]+ events — next: --limit 4 --page 2, all: --all$/);
  });

  it('never reaches a pipe', async () => {
    const result = await bed.lk(['library', '--max', '3']);
    expect(result.stderr).toBe('');
  });
});

describe('the count-mismatch notice names what was listed', () => {
  let api: FakeApi;
  beforeAll(async () => {
    // Announces 12 events, then 11, and delivers 10: events deleted while paging. (A total that never changes and
    // is not reached is no shift but a listing cut short: exit 1, see hostile.test.ts.)
    api = await startFakeApi((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const page = Number(url.searchParams.get('page') ?? 1);
      const items =
        page <= 2
          ? Array.from({ length: 5 }, (_, i) => ({ id: `ev${(page - 1) * 5 + i}`, kind: 'FILM_SEEN', date: '2026-01-01T00:00:00.000Z' }))
          : [];
      sendJson(res, 200, { items, hasMore: page < 2, total: page === 1 ? 12 : 11 });
    });
  });
  afterAll(async () => {
    await api.close();
  });

  it('history: "events were added or removed while paging"', async () => {
    const result = await runLkInProcess(['history', '--all', '--limit', '5', '--json'], { env: fakeEnv(api) });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/received 10 events where the server announced 11: events were added or removed while paging/);
    expect(result.stderr).not.toMatch(/library/);
  });
});

describe('the terminal table streams', () => {
  /** Display offset at which `needle` starts in `line`. */
  const offsetOf = (line: string, needle: string) => displayWidth(line.slice(0, line.indexOf(needle)));

  it('over several pages: one header, every row aligned on the same columns, none wider than COLUMNS', async () => {
    const result = await bed.lk(['library', '--all', '--limit', '7', '--format', 'table'], { env: { COLUMNS: '100' } });
    expect(result.code).toBe(0);
    const lines = result.stdout.replace(ANSI, '').trimEnd().split('\n');
    expect(lines.filter((line) => line.startsWith('TITLE'))).toHaveLength(1);
    expect(lines).toHaveLength(library.length + 1);
    const idAt = offsetOf(lines[0]!, 'ID');
    lines.slice(1).forEach((line, i) => {
      expect(displayWidth(line)).toBeLessThanOrEqual(100);
      expect(offsetOf(line, library[i]!.id)).toBe(idAt);
      expect(line.endsWith(library[i]!.id)).toBe(true);
    });
  });

  it('rows reach the terminal before the last page is answered, and wide titles stay aligned across pages', async () => {
    const titles = [
      '東京物語',
      'Amélie',
      '千と千尋の神隠し',
      '🎬 Film night',
      '七人の侍 — 完全版 ディレクターズカット 特別編集 東京国際映画祭 上映記念',
      'Plain title that is long enough to be cut short',
    ];
    const id = (n: number) => `id-${String(n).padStart(2, '0')}`;
    const entry = (n: number) => ({
      id: id(n),
      work: { title: titles[n % titles.length], type: 'film' },
      status: 'COMPLETED',
      phase: 'DONE',
      rating: n % 10,
    });
    let answerLastPage: (() => void) | undefined;
    let lastPageAsked: () => void = () => {};
    const asked = new Promise<void>((resolve) => (lastPageAsked = resolve));
    const api = await startFakeApi((req, res) => {
      const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? 1);
      const body = { items: Array.from({ length: 4 }, (_, i) => entry((page - 1) * 4 + i)), hasMore: page < 3, total: 12 };
      if (page < 3) return sendJson(res, 200, body);
      answerLastPage = () => sendJson(res, 200, body);
      lastPageAsked();
    });
    try {
      const child = spawn(...lkSpawnArgs(['library', '--all', '--limit', '4', '--format', 'table', '--no-color']), {
        env: { PATH: process.env.PATH, LANG: 'C.UTF-8', TZ: 'UTC', COLUMNS: '60', ...fakeEnv(api) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let linesBeforeLastPage = -1;
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
      await asked;
      // Wait (up to 5 s) for the first two pages' rows; a table that held its rows to the end would show none.
      for (let waited = 0; stdout.split('\n').length < 9 && waited < 5000; waited += 50) await new Promise((r) => setTimeout(r, 50));
      linesBeforeLastPage = stdout.split('\n').filter(Boolean).length;
      answerLastPage!();
      expect(await closed).toBe(0);
      expect(linesBeforeLastPage).toBe(1 + 8);
      const lines = stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(13);
      const idAt = offsetOf(lines[0]!, 'ID');
      lines.slice(1).forEach((line, i) => {
        expect(displayWidth(line)).toBeLessThanOrEqual(60);
        expect(offsetOf(line, id(i))).toBe(idAt);
      });
      expect(stdout).toContain('…');
    } finally {
      await api.close();
    }
  });

  describeWith(['script'], 'in a real terminal', () => {
    it('in a real terminal 80 columns wide: no line wider than 80, colours on, the header once', async () => {
      const result = await lkInPty(['library', '--all', '--limit', '60']);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(ANSI);
      // What the terminal shows of each line: the spinner on stderr shares the terminal and is erased by going back to
      // column 1 (CSI G, or a carriage return); under load it gets to draw before a row, so keep what follows the last.
      const lines = result.stdout
        .replace(/\n$/, '')
        .split('\n')
        .map((line) =>
          line
            .split(/\r|\u001b\[1?G/)
            .at(-1)!
            .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, ''),
        );
      expect(lines.filter((line) => line.startsWith('TITLE'))).toHaveLength(1);
      expect(lines.length).toBeGreaterThanOrEqual(library.length + 1);
      for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(80);
      const idAt = offsetOf(lines[0]!, 'ID');
      for (const entry of library) {
        const line = lines.find((candidate) => candidate.endsWith(entry.id))!;
        expect(offsetOf(line, entry.id)).toBe(idAt);
      }
    });
  });
});
