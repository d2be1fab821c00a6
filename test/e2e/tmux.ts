import { execFile } from 'node:child_process';
import { afterEach } from 'vitest';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { lkShellCommand, shellQuote } from './harness.js';
import { tempDir } from '../support/temp-dir.js';

/** lk in a real terminal: tmux, a server of its own per run (so runs can go side by side). */
const run = promisify(execFile);

/**
 * The servers still running. A test that times out leaves its run awaiting, and its finally may never come: afterEach
 * (registered for every file that imports this module; it runs before the test's temp folders, the sockets' homes,
 * are removed) kills what is left, and each pane's shell ends its server itself after ten minutes, so that not even a
 * killed worker leaves one behind for good.
 */
const liveSockets = new Set<string>();
afterEach(async () => {
  await Promise.all([...liveSockets].map((socket) => run('tmux', ['-S', socket, 'kill-server']).catch(() => {})));
  liveSockets.clear();
});

export interface TerminalRun {
  code: number;
  /** The screen and its scrollback at the end, wrapped lines joined, no colour. */
  screen: string;
  /** The same with colours, as tmux redraws them. */
  colouredScreen: string;
  /** Every byte written to the terminal, in order. */
  written: string;
}

/**
 * Runs `lk ARGS` in tmux and returns once it has exited. `redirect` is shell text after the command (`> out.txt`,
 * `2> err.txt | cat > out.txt`), run in `dir`. The environment is exactly `env` plus the basics: nothing from the
 * test runner (CI, NO_COLOR, FORCE_COLOR) reaches lk.
 */
export async function inTerminal(
  args: string[],
  env: Record<string, string | undefined>,
  options: { redirect?: string; dir?: string; columns?: number; rows?: number; keys?: Array<{ when: RegExp; send: string[] }> } = {},
): Promise<TerminalRun & { screens: string[] }> {
  const dir = options.dir ?? tempDir('lk-tty-');
  const socket = join(dir, 'tmux.sock');
  // No pager unless a test asks for one (LK_PAGER: undefined): most tests read the whole output off the screen.
  const words = Object.entries({
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    TERM: 'xterm-256color',
    LK_PAGER: 'cat',
    ...env,
  })
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => shellQuote(`${name}=${value}`));
  const command = ['env', '-i', ...words, lkShellCommand(args)].join(' ');
  // The program starts once the recording is attached ("go"); the marker after it says that all its output is in.
  // The shell then stays (until kill-server, at most ten minutes): tmux 3.3 drops what it has not yet read from a pane
  // whose process has exited, so under load the end of the output and the marker could be lost, and the wait below never end.
  writeFileSync(join(dir, 'run.sh'), `tmux wait-for go\n${command} ${options.redirect ?? ''}\necho "lk-exit:$?"\nsleep 600\ntmux kill-server\n`);
  writeFileSync(join(dir, 'tmux.conf'), 'set -g history-limit 50000\nset -g remain-on-exit on\n');
  const tmux = (...tmuxArgs: string[]) =>
    run('tmux', ['-u', '-S', socket, ...tmuxArgs], {
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, LANG: 'C.UTF-8' },
      timeout: 30_000,
    });
  const columns = String(options.columns ?? 80);
  liveSockets.add(socket);
  await tmux(
    '-f',
    join(dir, 'tmux.conf'),
    'new-session',
    '-d',
    '-x',
    columns,
    '-y',
    String(options.rows ?? 50),
    '-s',
    'lk',
    '-c',
    dir,
    'sh',
    join(dir, 'run.sh'),
  );
  try {
    await tmux('pipe-pane', '-t', 'lk', '-o', `cat > ${shellQuote(join(dir, 'written'))}`);
    await tmux('wait-for', '-S', 'go');
    const capture = async (colours: boolean) =>
      (await tmux('capture-pane', '-t', 'lk', '-p', '-J', '-S', '-', '-E', '-', ...(colours ? ['-e'] : []))).stdout;
    let screen = '';
    // Keys for a program that waits for them (a pager): each sent once the screen shows what it waits for.
    const screens: string[] = [];
    for (const step of options.keys ?? []) {
      for (let waited = 0; waited < 30_000; waited += 100) {
        // The visible screen as it stands, lines not joined (a prompt after a wrapped line is a line of its own).
        screen = (await tmux('capture-pane', '-t', 'lk', '-p')).stdout;
        if (step.when.test(screen)) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      screens.push(await capture(true));
      await tmux('send-keys', '-t', 'lk', ...step.send);
    }
    for (let waited = 0; waited < 60_000; waited += 100) {
      screen = await capture(false);
      const writtenSoFar = existsSync(join(dir, 'written')) ? readFileSync(join(dir, 'written'), 'utf8') : '';
      if (/^lk-exit:\d+$/m.test(screen) && writtenSoFar.includes('lk-exit:')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const code = Number(/^lk-exit:(\d+)$/m.exec(screen)?.[1] ?? -1);
    const untilMarker = (text: string) => text.slice(0, text.search(/^lk-exit:/m)).replace(/\n+$/, '\n');
    return {
      code,
      screens,
      screen: untilMarker(screen),
      colouredScreen: untilMarker(await capture(true)),
      written: readFileSync(join(dir, 'written'), 'utf8').replace(/lk-exit:\d+\s*$/, ''),
    };
  } finally {
    await tmux('kill-server').catch(() => {});
    liveSockets.delete(socket);
    if (!options.dir) rmSync(dir, { recursive: true, force: true });
  }
}
