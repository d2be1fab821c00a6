import { LkError } from '../../util/errors.js';
import type { IoStreams } from './io.js';
import { spawn } from 'node:child_process';

/**
 * Opening a page in the browser (like gh browse): BROWSER, else xdg-open or open; where no browser can be opened the
 * URL is printed instead, for a person to copy or a script to use.
 */

/** The command that opens a URL here, or why none can: the URL is then printed. */
export function browserFor(
  io: IoStreams,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): { command: string } | { print: string } {
  // `$(lk open 42)`, a pipe, cron: the caller wants the URL.
  if (!io.stdoutIsTTY) return { print: 'stdout is not a terminal' };
  const named = env.BROWSER?.trim();
  if (named) return { command: named };
  if (env.SSH_CONNECTION || env.SSH_CLIENT || env.SSH_TTY) return { print: 'an ssh session has no browser here' };
  if (platform === 'darwin') return { command: 'open' };
  if (platform === 'win32') return { print: 'no browser command known on Windows; set BROWSER' };
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return { print: 'no display (DISPLAY and WAYLAND_DISPLAY are unset)' };
  return { command: 'xdg-open' };
}

/**
 * Runs the browser command with the URL as its own argument ("$1" to a shell, never pasted into the command line),
 * or in place of `%s` when BROWSER has one (the old convention), and waits for it: xdg-open and open return at once.
 */
export async function openInBrowser(command: string, url: string, env: NodeJS.ProcessEnv): Promise<void> {
  const script = command.includes('%s') ? command.replaceAll('%s', '"$1"') : `${command} "$1"`;
  const child = spawn('/bin/sh', ['-c', script, 'sh', url], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (exit) => resolve(exit));
  });
  if (code !== 0) throw new LkError(`could not open the browser: \`${command}\` exited with ${code ?? 'a signal'}`, 1, `Open it yourself: ${url}`);
}
