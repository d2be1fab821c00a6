import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/output/terminal/width.js';
import { startFakeApi, sendJson } from './fake-api.js';
import { listingCommands, startTestBed, tempHome, type TestBed } from './harness.js';
import { inTerminal } from './tmux.js';
import { describeWith } from '../support/outside-tools.js';
import { tempDir } from '../support/temp-dir.js';

/**
 * lk in a real terminal: tmux runs it in a pseudo-terminal 80 columns wide, as a person at a shell would, and keeps
 * both what the screen ends up showing (capture-pane, colours included) and every byte the program wrote to it
 * (pipe-pane), spinner frames included. Declared with describeWith: skipped where tmux is missing, required in CI.
 */

const SGR = /\u001b\[[0-9;]*m/;
const ESC = '\u001b';
/** What the paging spinner says while `lk library --all` reads the sandbox's 250 entries. */
const PAGING_COUNT = /\d+ \/ 250 entries/;

let bed: TestBed;
let ids: string[];

/** The tests of this area, in parts that run as files of their own, side by side. */
export function terminalTests(part: 'a' | 'b'): void {
  // Each file's own bed: a worker imports this module once for all its files (isolate: false), so hooks at its top
  // level would be registered for the first file alone, and the next would find that file's sandbox closed.
  beforeAll(async () => {
    bed = await startTestBed({ entries: 250, rateLimit: 0 });
    ids = (JSON.parse((await bed.lk(['library', '--all', '--json'])).stdout) as Array<{ id: string }>).map((entry) => entry.id);
  });

  afterAll(async () => {
    await bed.sandbox.close();
  });

  if (part === 'a') {
    describeWith(['tmux'], 'lk library in a real terminal 80 columns wide', () => {
      it('fits the table to the window: no line wider than 80 columns, the header once, the ID column aligned', async () => {
        const result = await inTerminal(['library', '--all', '--limit', '60'], bed.env());
        expect(result.code).toBe(0);
        const lines = result.screen.trimEnd().split('\n');
        for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(80);
        expect(lines.filter((line) => line.startsWith('TITLE'))).toHaveLength(1);
        expect(lines).toHaveLength(1 + 250);
        const idAt = displayWidth(lines[0]!.slice(0, lines[0]!.indexOf('ID')));
        lines.slice(1).forEach((line, i) => {
          expect(line.endsWith(ids[i]!), line).toBe(true);
          expect(displayWidth(line) - displayWidth(ids[i]!), line).toBe(idAt);
        });
        // Titles were cut to fit, and the cut is shown.
        expect(result.screen).toContain('…');
      });

      it("is coloured: bold headers, statuses in their phase's colour, dim secondary columns", async () => {
        const result = await inTerminal(['library'], bed.env());
        expect(result.code).toBe(0);
        expect(result.colouredScreen).toMatch(SGR);
        expect(result.written).toContain('\u001b[1mTITLE');
        expect(result.written).toMatch(/\u001b\[32mCOMPLETED/);
        expect(result.written).toMatch(/\u001b\[2mfilm/);
        expect(result.screen).toMatch(/^Showing 20 of 250 entries — /m);
      });

      it('piped, the same command writes no escape byte and no spinner text, and nothing on the terminal', async () => {
        const dir = tempDir('lk-tty-');
        try {
          const result = await inTerminal(['library', '--all', '--limit', '25'], bed.env(), { redirect: '| cat > out.txt', dir });
          expect(result.code).toBe(0);
          const piped = readFileSync(join(dir, 'out.txt'), 'utf8');
          expect(piped.split('\n').filter(Boolean)).toHaveLength(250);
          expect(piped).not.toContain(ESC);
          expect(piped).not.toMatch(PAGING_COUNT);
          expect(result.screen.trim()).toBe('');
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      });
    });
  }
  if (part === 'b') {
    for (const variant of ['default', 'alt'] as const)
      describeWith(['tmux'], `every listing in a real terminal, against the ${variant} sandbox`, () => {
        let listingBed: TestBed;
        let commands: string[][];
        beforeAll(async () => {
          listingBed = await startTestBed({ rateLimit: 0, variant });
          commands = [...(await listingCommands(listingBed)), ['whoami']];
        });
        afterAll(() => listingBed.sandbox.close());

        it.each([80, 50])(
          'at %i columns: no wrapped row, nothing past the edge, the paging notice on one line',
          async (columns) => {
            // Each run has a tmux server of its own: all the listings at once.
            const results = await Promise.all(commands.map((args) => inTerminal(args, listingBed.env(), { columns })));
            for (const [i, args] of commands.entries()) {
              const result = results[i]!;
              expect(result.code, args.join(' ')).toBe(0);
              // capture-pane -J joins a wrapped line back: any line wider than the pane wrapped.
              const lines = result.screen.trimEnd().split('\n');
              expect(lines.length, args.join(' ')).toBeGreaterThan(1);
              expect(
                lines.filter((line) => displayWidth(line) > columns),
                `lk ${args.join(' ')} at ${columns} columns`,
              ).toEqual([]);
            }
          },
          120_000,
        );
      });
  }
  if (part === 'a') {
    describeWith(['tmux'], 'progress while --all pages', () => {
      /** One page at a time, each answered after 300 ms: 250 entries in pages of 50 take a visible moment. */
      const slow = () => ({ ...bed.env(), LK_PAGING_CONCURRENCY: '1' });
      beforeAll(() => {
        bed.sandbox.faults = { latencyMs: 300 };
      });
      afterAll(() => {
        bed.sandbox.faults = {};
      });

      it("a spinner with the count on a terminal's stderr, cleared before the end notice", async () => {
        const result = await inTerminal(['library', '--all', '--limit', '50', '--max', '200'], slow());
        expect(result.code).toBe(0);
        expect(result.written).toMatch(PAGING_COUNT);
        // Cleared: the screen keeps the rows and the notice, not the spinner.
        expect(result.screen).not.toMatch(PAGING_COUNT);
        expect(result.screen.trimEnd().split('\n').at(-1)).toBe('Showing 200 of 250 entries — next: --limit 50 --page 5, all: --all');
      });

      it('the same with stdout in a file: the spinner stays on the terminal, the file gets only data', async () => {
        const dir = tempDir('lk-tty-');
        try {
          const result = await inTerminal(['library', '--all', '--limit', '50', '--json'], slow(), { redirect: '> out.json', dir });
          expect(result.code).toBe(0);
          expect(result.written).toMatch(PAGING_COUNT);
          const file = readFileSync(join(dir, 'out.json'), 'utf8');
          expect(JSON.parse(file)).toHaveLength(250);
          expect(file).not.toContain(ESC);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      });

      it('-q: no spinner at all', async () => {
        const result = await inTerminal(['library', '--all', '--limit', '50', '--json', '-q'], slow(), { redirect: '> /dev/null' });
        expect(result.code).toBe(0);
        expect(result.written).not.toMatch(/entries/);
        expect(result.written).not.toContain(ESC);
      });

      it('stderr in a file (a cron mail): nothing of it', async () => {
        const dir = tempDir('lk-tty-');
        try {
          const result = await inTerminal(['library', '--all', '--limit', '50'], slow(), { redirect: '2> err.txt | cat > out.txt', dir });
          expect(result.code).toBe(0);
          expect(readFileSync(join(dir, 'err.txt'), 'utf8')).toBe('');
          expect(readFileSync(join(dir, 'out.txt'), 'utf8')).not.toContain(ESC);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      });
    });
  }
  if (part === 'a') {
    describeWith(['tmux'], 'a rate-limit wait while paging', () => {
      it("shares the spinner's line: the count, then the seconds left", async () => {
        let refused = false;
        const api = await startFakeApi((req, res) => {
          const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? 1);
          if (page === 2 && !refused) {
            refused = true;
            res.writeHead(429, {
              'content-type': 'application/json',
              'retry-after': '2',
              'x-ratelimit-limit': '60',
              'x-ratelimit-remaining': '0',
              'x-ratelimit-reset': '2',
            });
            res.end(JSON.stringify({ error: { code: 'api.rate_limited', message: 'slow down' } }));
            return;
          }
          const items = [1, 2].map((n) => ({
            id: `e${page}-${n}`,
            work: { title: `Title ${page}-${n}`, type: 'film' },
            status: 'PLANNED',
            phase: 'PLANNED',
          }));
          sendJson(res, 200, { items, hasMore: page < 3, total: 6 });
        });
        try {
          const home = tempHome();
          const env = { LK_BASE_URL: api.url, LK_API_KEY: `lk_${'Q'.repeat(43)}abc123`, LK_CONFIG_DIR: home.configDir, LK_CACHE_DIR: home.cacheDir };
          const result = await inTerminal(['library', '--all', '--limit', '2', '--json'], env, { redirect: '> /dev/null' });
          expect(result.code).toBe(0);
          expect(result.written).toMatch(/2 \/ 6 entries · waiting [12]s for the rate limit/);
          // One spinner: ora warns when two fight over a stream.
          expect(result.written).not.toMatch(/Multiple concurrent spinners/);
        } finally {
          await api.close();
        }
      });
    });
  }
  if (part === 'a') {
    describe('colour settings', () => {
      /** lk library as on a terminal (both streams report a tty) unless `pipe`; returns stdout. */
      const table = async (env: Record<string, string | undefined>, flags: string[] = [], pipe = false) => {
        const result = await bed.lk(['library', '--max', '5', '--format', 'table', ...flags], { env, ...(pipe ? {} : { tty: {} }) });
        expect(result.code).toBe(0);
        return result.stdout;
      };
      const configured = async (color: string) => {
        const home = tempHome();
        const env = { ...bed.env(), LK_CONFIG_DIR: home.configDir };
        expect((await bed.lk(['config', 'set', 'color', color], { env })).code).toBe(0);
        return env;
      };

      it('a terminal is coloured, a pipe is not', async () => {
        expect(await table({})).toMatch(SGR);
        expect(await table({}, [], true)).not.toContain(ESC);
      });

      it('--no-color, NO_COLOR and FORCE_COLOR=0 turn it off on a terminal', async () => {
        expect(await table({}, ['--no-color'])).not.toContain(ESC);
        expect(await table({ NO_COLOR: '1' })).not.toContain(ESC);
        expect(await table({ FORCE_COLOR: '0' })).not.toContain(ESC);
      });

      it('FORCE_COLOR colours a pipe; --no-color still wins', async () => {
        expect(await table({ FORCE_COLOR: '1' }, [], true)).toMatch(SGR);
        expect(await table({ FORCE_COLOR: '1' }, ['--no-color'], true)).not.toContain(ESC);
      });

      it('lk config set color never: a plain terminal; always: a coloured pipe; the environment comes first', async () => {
        const never = await configured('never');
        expect(await table(never)).not.toContain(ESC);
        expect(await table({ ...never, FORCE_COLOR: '1' })).toMatch(SGR);
        const always = await configured('always');
        expect(await table(always, [], true)).toMatch(SGR);
        expect(await table({ ...always, NO_COLOR: '1' }, [], true)).not.toContain(ESC);
      });

      it('csv and tsv are never coloured, json only on a terminal, and no pipe is, even with FORCE_COLOR', async () => {
        for (const flag of ['--csv', '--tsv']) {
          const result = await bed.lk(['library', '--max', '3', flag], { env: { FORCE_COLOR: '1' }, tty: {} });
          expect(result.stdout, flag).not.toContain(ESC);
        }
        for (const flag of ['--json', '--ndjson', '--csv', '--tsv']) {
          expect((await bed.lk(['library', '--max', '3', flag], { env: { FORCE_COLOR: '1' } })).stdout, flag).not.toContain(ESC);
        }
        expect((await bed.lk(['library', '--max', '3'], { env: { FORCE_COLOR: '1' } })).stdout).not.toContain(ESC);
      });

      it('errors are red on a terminal, plain with NO_COLOR, in a pipe, or with color never', async () => {
        const red = /^\u001b\[31mlk: /m;
        const usage = (env: Record<string, string | undefined>, pipe = false) =>
          bed.lk(['library', '--limit', '0'], { env, ...(pipe ? {} : { tty: {} }) });
        const onTerminal = await usage({});
        expect(onTerminal.code).toBe(2);
        expect(onTerminal.stderr).toMatch(red);
        expect((await usage({ NO_COLOR: '1' })).stderr).toMatch(/^lk: /);
        expect((await usage({}, true)).stderr).toMatch(/^lk: /);
        expect((await usage(await configured('never'))).stderr).toMatch(/^lk: /);
        // An error from the server's side too: a refused key.
        const refused = await bed.lk(['whoami'], { key: 'revoked', tty: {} });
        expect(refused.code).toBe(3);
        expect(refused.stderr).toMatch(red);
      });
    });
  }
  if (part === 'b') {
    describeWith(['tmux', 'less'], 'the pager', () => {
      /** less's prompt at the bottom of a screen it holds: a line that is only ":" (or "(END)"). */
      const LESS_WAITING = /^(:|\(END\))\s*$/m;

      it('long output opens less -FRX on a terminal: the first screen, colours kept, q quits with exit 0', async () => {
        const result = await inTerminal(
          ['library', '--all', '--limit', '100'],
          { ...bed.env(), LK_PAGER: undefined, PAGER: undefined },
          {
            rows: 30,
            keys: [{ when: LESS_WAITING, send: ['q'] }],
          },
        );
        expect(result.code).toBe(0);
        const held = result.screens[0]!;
        // less shows the first screen and waits: the header and the first entry, not the last.
        expect(held.replace(/\u001b\[[0-9;]*m/g, '')).toMatch(LESS_WAITING);
        expect(held).toContain('TITLE');
        expect(held).toContain(ids[0]!);
        expect(held).not.toContain(ids[249]!);
        // -R: the colours reach the screen through less, not as "ESC[1m" shown as text.
        expect(held).toMatch(SGR);
        expect(result.written).toContain('\u001b[1mTITLE');
        expect(result.screen).not.toMatch(/ESC\[|lk: /);
      });

      it('quitting before the output is all written (EPIPE from the pager) is success, with nothing on stderr', async () => {
        // 250 entries as JSON are more than a pipe holds: lk is still writing when q closes less.
        const result = await inTerminal(
          ['library', '--all', '--limit', '100', '--json'],
          { ...bed.env(), LK_PAGER: undefined, PAGER: undefined },
          {
            rows: 30,
            keys: [{ when: LESS_WAITING, send: ['q'] }],
          },
        );
        expect(result.code).toBe(0);
        expect(result.screen).not.toMatch(/lk: |EPIPE|error/i);
      });

      it('--no-pager, LK_PAGER=cat and a pipe never page: the command ends by itself with every line', async () => {
        const noPager = await inTerminal(['library', '--all', '--limit', '100', '--no-pager'], { ...bed.env(), LK_PAGER: undefined }, { rows: 30 });
        expect(noPager.code).toBe(0);
        expect(noPager.screen.trimEnd().split('\n')).toHaveLength(251);
        const cat = await inTerminal(['library', '--all', '--limit', '100'], { ...bed.env(), LK_PAGER: 'cat' }, { rows: 30 });
        expect(cat.screen.trimEnd().split('\n')).toHaveLength(251);
        const dir = tempDir('lk-tty-');
        try {
          const piped = await inTerminal(
            ['library', '--all', '--limit', '100'],
            { ...bed.env(), LK_PAGER: undefined },
            { rows: 30, redirect: '| cat > out.txt', dir },
          );
          expect(piped.code).toBe(0);
          expect(readFileSync(join(dir, 'out.txt'), 'utf8').split('\n').filter(Boolean)).toHaveLength(250);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      });

      it('output shorter than the screen starts no pager: printed at once, the notice after it', async () => {
        const result = await inTerminal(['library'], { ...bed.env(), LK_PAGER: undefined, PAGER: undefined }, { rows: 30 });
        expect(result.code).toBe(0);
        expect(result.screen).toMatch(/^Showing 20 of 250 entries/m);
      });
    });
  }
  if (part === 'b') {
    describe('which pager', () => {
      /** A pager that records what it is given into `file`. */
      const recorder = (dir: string, name: string) => `cat > '${join(dir, name)}'`;
      const paged = async (env: Record<string, string | undefined>, flags: string[] = []) =>
        bed.lk(['library', '--all', '--limit', '100', ...flags], { env, tty: { rows: 20 } });

      it('LK_PAGER, else `lk config set pager`, else PAGER; notices wait until the pager is done', async () => {
        const dir = tempDir('lk-pager-');
        try {
          const home = tempHome();
          const env = { ...bed.env(), LK_CONFIG_DIR: home.configDir, LK_PAGER: undefined, PAGER: recorder(dir, 'pager') };
          // PAGER alone.
          let result = await paged(env);
          expect(result.code).toBe(0);
          expect(result.stdout).toBe('');
          expect(readFileSync(join(dir, 'pager'), 'utf8').trimEnd().split('\n')).toHaveLength(251);
          // The config comes before PAGER.
          expect((await bed.lk(['config', 'set', 'pager', recorder(dir, 'config')], { env })).code).toBe(0);
          result = await paged(env);
          expect(readFileSync(join(dir, 'config'), 'utf8')).toContain('TITLE');
          // LK_PAGER before both.
          result = await paged({ ...env, LK_PAGER: recorder(dir, 'lk-pager') });
          expect(readFileSync(join(dir, 'lk-pager'), 'utf8')).toContain('TITLE');
          // --no-pager: straight to the terminal.
          result = await paged({ ...env, LK_PAGER: recorder(dir, 'never') }, ['--no-pager']);
          expect(result.stdout.trimEnd().split('\n')).toHaveLength(251);
          expect(existsSync(join(dir, 'never'))).toBe(false);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      });

      it('a pipe never pages, whatever pager is named', async () => {
        const dir = tempDir('lk-pager-');
        try {
          const result = await bed.lk(['library', '--all', '--limit', '100'], { env: { LK_PAGER: recorder(dir, 'pipe') } });
          expect(result.stdout.trimEnd().split('\n')).toHaveLength(250);
          expect(existsSync(join(dir, 'pipe'))).toBe(false);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      });
    });
  }
  if (part === 'b') {
    describeWith(['tmux'], 'titles link to their page (OSC 8) on terminals that support it', () => {
      const OSC8 = '\u001b]8;;';

      it('VTE 0.70 (GNOME Terminal): each title links to its entry; the links take no width, so the table still fits and aligns', async () => {
        const result = await inTerminal(['library', '--limit', '40'], { ...bed.env(), VTE_VERSION: '7000' });
        expect(result.code).toBe(0);
        expect(result.written).toContain(`${OSC8}https://app.lk.example/library/${ids[0]}\u001b\\`);
        expect(result.written.split(OSC8).length - 1).toBe(2 * 40);
        const lines = result.screen
          .trimEnd()
          .split('\n')
          .filter((line) => !line.startsWith('Showing'));
        expect(lines).toHaveLength(41);
        const idAt = displayWidth(lines[0]!.slice(0, lines[0]!.indexOf('ID')));
        lines.slice(1).forEach((line, i) => {
          expect(displayWidth(line), line).toBeLessThanOrEqual(80);
          expect(line.endsWith(ids[i]!), line).toBe(true);
          expect(displayWidth(line) - displayWidth(ids[i]!), line).toBe(idAt);
        });
      });

      it('an unknown terminal, --no-color and a pipe get no link escapes', async () => {
        const plain = await inTerminal(['library', '--limit', '5'], bed.env());
        expect(plain.written).not.toContain(OSC8);
        const noColor = await inTerminal(['library', '--limit', '5', '--no-color'], { ...bed.env(), VTE_VERSION: '7000' });
        expect(noColor.written).not.toContain(OSC8);
        expect(noColor.written).not.toContain(ESC);
        const dir = tempDir('lk-tty-');
        try {
          await inTerminal(
            ['library', '--limit', '5', '--format', 'table'],
            { ...bed.env(), VTE_VERSION: '7000', FORCE_HYPERLINK: '1' },
            { redirect: '| cat > out.txt', dir },
          );
          expect(readFileSync(join(dir, 'out.txt'), 'utf8')).not.toContain(ESC);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      });

      it('FORCE_HYPERLINK=1 turns them on for any terminal, FORCE_HYPERLINK=0 off for a known one', async () => {
        const on = await bed.lk(['lists'], { env: { FORCE_HYPERLINK: '1' }, tty: {} });
        expect(on.stdout).toMatch(/\u001b\]8;;https:\/\/app\.lk\.example\/lists\//);
        const off = await bed.lk(['library', '--max', '3'], { env: { FORCE_HYPERLINK: '0', WT_SESSION: 'x' }, tty: {} });
        expect(off.stdout).not.toContain(OSC8);
        const windows = await bed.lk(['library', '--max', '3'], { env: { WT_SESSION: 'x' }, tty: {} });
        expect(windows.stdout).toContain(OSC8);
      });
    });
  }
}
