import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { LkError, ExitCode } from '../../util/errors.js';

/**
 * The pager (like gh and git): output taller than the terminal goes through `less -FRX` or the user's choice, so that
 * a long table does not scroll away. IoStreams (io.ts) decides whether a run pages at all; this file holds the output
 * back until it is taller than the screen, then starts the pager and hands it everything.
 */

/** The pager when nothing names one: -F quits at once when the output fits, -R keeps colours, -X leaves it on screen. */
export const DEFAULT_PAGER = 'less -FRX';

/**
 * LK_PAGER, else `lk config set pager`, else PAGER, else less -FRX. Undefined when paging is off: an empty value or
 * `cat` at the first level that names one.
 */
export function pagerCommand(env: NodeJS.ProcessEnv, configured: string | undefined): string | undefined {
  const named = env.LK_PAGER ?? configured ?? env.PAGER ?? DEFAULT_PAGER;
  const command = named.trim();
  return command === '' || command === 'cat' ? undefined : command;
}

/** The pager went away before the output was all written (`q` in less): the reader is done, which is success. */
export class PagerClosedError extends LkError {
  constructor() {
    super('the pager was closed', ExitCode.ok);
  }
}

export interface PagedOutputOptions {
  command: string;
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Lines of the terminal: output up to this tall is written straight to it, no pager started. */
  rows: number;
  columns: number;
  /** Told when the pager takes the terminal (the spinner must stop drawing on it). */
  onStart: () => void;
}

/**
 * Stdout of a run that may page: text is held until it is taller than the screen, then a pager starts and gets it
 * all, and what follows. Short output never starts a process.
 */
export class PagedOutput {
  private held: Array<string | Uint8Array> = [];
  private lines = 0;
  private child: ChildProcess | undefined;
  private exited: Promise<void> | undefined;
  private gone = false;

  constructor(private readonly options: PagedOutputOptions) {}

  /** The pager is running, or ran: the terminal is or was its. */
  get started(): boolean {
    return this.child !== undefined;
  }

  async write(text: string | Uint8Array): Promise<void> {
    if (this.gone) throw new PagerClosedError();
    if (this.child) return this.toPager(text);
    this.held.push(text);
    this.lines += screenLines(text, this.options.columns);
    if (this.lines < this.options.rows) return;
    this.start();
    const held = this.held;
    this.held = [];
    for (const chunk of held) await this.toPager(chunk);
  }

  /** Writes what is still held (short output), or closes the pager's input and waits for the reader to quit. */
  async finish(): Promise<void> {
    if (!this.child) {
      for (const chunk of this.held) if (!this.options.stdout.write(chunk)) await once(this.options.stdout, 'drain');
      this.held = [];
      return;
    }
    if (!this.gone) this.child.stdin?.end();
    await this.exited;
  }

  private start(): void {
    const { command, env, stdout, stderr } = this.options;
    // Loaded here: most runs never page, and every run would pay for node:child_process at start.
    const { spawn } = process.getBuiltinModule('node:child_process');
    // A shell reads the command, as git does: `less -FRX`, `most`, `bat --paging=always` all work as written.
    // LESS=FRX (as gh sets it) when unset, so that a PAGER of plain `less` keeps colours and quits on short output.
    const child = spawn('/bin/sh', ['-c', command], {
      env: { LESS: 'FRX', LV: '-c', ...env },
      stdio: ['pipe', stdout === process.stdout ? 'inherit' : 'pipe', stderr === process.stderr ? 'inherit' : 'pipe'],
    });
    child.stdout?.pipe(stdout, { end: false });
    child.stderr?.pipe(stderr, { end: false });
    // EPIPE once the reader quits: not an error, the next write says "done" instead.
    child.stdin?.on('error', () => (this.gone = true));
    this.exited = new Promise((resolve) => {
      child.once('error', () => {
        this.gone = true;
        resolve();
      });
      child.once('close', () => {
        this.gone = true;
        resolve();
      });
    });
    this.child = child;
    this.options.onStart();
  }

  private async toPager(text: string | Uint8Array): Promise<void> {
    const stdin = this.child?.stdin;
    if (this.gone || !stdin || stdin.destroyed) throw new PagerClosedError();
    if (stdin.write(text)) return;
    // Full: wait for room, or for the reader to quit (then no drain ever comes).
    await Promise.race([once(stdin, 'drain').catch(() => undefined), this.exited]);
    if (this.gone) throw new PagerClosedError();
  }
}

/** Colours and hyperlinks take no room on the screen. */
const ESCAPES = /\u001b\[[0-9;]*m|\u001b\]8;[^\u0007\u001b]*(?:\u0007|\u001b\\)/g;

/** How many terminal lines text takes, long lines wrapping (measured in characters: close enough to decide). */
function screenLines(text: string | Uint8Array, columns: number): number {
  const asText = typeof text === 'string' ? text : Buffer.from(text).toString('utf8');
  let lines = 0;
  for (const line of asText.split('\n').slice(0, -1)) {
    const visible = line.replace(ESCAPES, '');
    lines += Math.max(1, Math.ceil(visible.length / Math.max(1, columns)));
  }
  if (!asText.endsWith('\n') && asText.length > 0) lines += 1;
  return lines;
}
