import { once } from 'node:events';
import { escapeForTerminal } from './sanitize.js';
import { PagedOutput } from './pager.js';

/**
 * The one place that decides everything about the terminal (like gh's iostreams): whether stdout and stderr are
 * terminals, whether colour is on, how wide the screen is, and whether stderr may carry notices and spinners.
 * Nothing else writes to process.stdout or process.stderr directly.
 */

export type ColorMode = 'auto' | 'always' | 'never';

export interface IoOptions {
  stdout?: NodeJS.WritableStream & { isTTY?: boolean; columns?: number; rows?: number };
  stderr?: NodeJS.WritableStream & { isTTY?: boolean };
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  env?: NodeJS.ProcessEnv;
  quiet?: boolean;
  verbose?: boolean;
  color?: ColorMode;
  noColorFlag?: boolean;
  /** The pager command (pager.ts's pagerCommand), or undefined for none (--no-pager, `cat`). */
  pager?: string | undefined;
}

export class IoStreams {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  readonly stdinIsTTY: boolean;
  readonly quiet: boolean;
  readonly verbose: boolean;
  readonly colorEnabled: boolean;
  readonly stderrColorEnabled: boolean;
  private readonly env: NodeJS.ProcessEnv;
  private readonly stdoutColumns: number | undefined;
  /** Set when this run may page: stdout a terminal of known height, and a pager named. */
  private readonly paged: PagedOutput | undefined;
  /** Lines for stderr held while the pager has the terminal, written once it quits. */
  private heldNotices: string[] = [];
  private readonly pagerStartListeners: Array<() => void> = [];

  constructor(options: IoOptions = {}) {
    const stdout = options.stdout ?? process.stdout;
    const stderr = options.stderr ?? process.stderr;
    this.stdout = stdout;
    this.stderr = stderr;
    this.stdin = options.stdin ?? process.stdin;
    this.env = options.env ?? process.env;
    this.stdoutIsTTY = Boolean(stdout.isTTY);
    this.stderrIsTTY = Boolean(stderr.isTTY);
    this.stdinIsTTY = Boolean(this.stdin.isTTY);
    this.stdoutColumns = stdout.columns;
    this.quiet = Boolean(options.quiet);
    this.verbose = Boolean(options.verbose);
    const mode = decideColorMode(options, this.env);
    this.colorEnabled = mode === 'always' || (mode === 'auto' && this.stdoutIsTTY);
    this.stderrColorEnabled = mode === 'always' || (mode === 'auto' && this.stderrIsTTY);
    // Only a real screen pages: a terminal whose height is known; never a pipe or a file.
    const rows = (stdout as { rows?: number }).rows;
    if (options.pager && this.stdoutIsTTY && rows && rows > 0) {
      this.paged = new PagedOutput({
        command: options.pager,
        env: this.env,
        stdout,
        stderr,
        rows,
        columns: this.columns,
        onStart: () => {
          for (const listener of this.pagerStartListeners) listener();
        },
      });
    }
  }

  /** The pager has (or had) the terminal. */
  get paging(): boolean {
    return this.paged?.started ?? false;
  }

  /** Called when a pager takes the terminal: the spinner stops drawing on it. */
  onPagerStart(listener: () => void): void {
    this.pagerStartListeners.push(listener);
  }

  /** The end of the run's output: short output held for the pager is written, or the pager is waited for. */
  async finish(): Promise<void> {
    if (!this.paged) return;
    await this.paged.finish();
    const notices = this.heldNotices;
    this.heldNotices = [];
    for (const line of notices) this.stderr.write(line);
  }

  /** Width of the terminal stdout is on; COLUMNS overrides (tests and narrow panes). */
  get columns(): number {
    const fromEnv = Number.parseInt(this.env.COLUMNS ?? '', 10);
    if (Number.isFinite(fromEnv) && fromEnv > 0) return fromEnv;
    return this.stdoutColumns && this.stdoutColumns > 0 ? this.stdoutColumns : 80;
  }

  /** Notices for a person at a terminal ("Showing 20 of 1,234…"): never in a pipe, never with -q. */
  get mayNotify(): boolean {
    return this.stderrIsTTY && this.stdoutIsTTY && !this.quiet;
  }

  /** Spinners and countdowns: stderr must be a terminal that can redraw a line (not TERM=dumb), and not -q. */
  get mayShowProgress(): boolean {
    return this.stderrIsTTY && !this.quiet && this.env.TERM !== 'dumb';
  }

  /** Interactive prompts need a terminal on both ends. */
  get mayPrompt(): boolean {
    return this.stdinIsTTY && this.stderrIsTTY;
  }

  /** Writes to stdout, waiting when the pipe is full so that memory does not grow with the output. */
  async write(text: string | Uint8Array): Promise<void> {
    if (text.length === 0) return;
    if (this.paged) return this.paged.write(text);
    if (!this.stdout.write(text)) await once(this.stdout, 'drain');
  }

  /**
   * Data in an exact format (json, csv, the server's own text): exact in a pipe or a file, but on a terminal the
   * characters it would act on (an OSC 52 clipboard write, a window title, a clear screen) are shown escaped.
   */
  async writeExact(text: string): Promise<void> {
    await this.write(this.stdoutIsTTY ? escapeForTerminal(text) : text);
  }

  /** A line for a person on stderr; dropped with -q. */
  info(line: string): void {
    if (!this.quiet) this.toStderr(line.endsWith('\n') ? line : `${line}\n`);
  }

  /** A warning on stderr; shown even with -q, since it is about something that may be wrong. */
  warn(line: string): void {
    this.toStderr(line.endsWith('\n') ? line : `${line}\n`);
  }

  /** While a pager shows the output, a line on the terminal would land in the middle of its screen: held till it quits. */
  private toStderr(text: string): void {
    if (this.paging && this.stderrIsTTY) this.heldNotices.push(text);
    else this.stderr.write(text);
  }

  /** One line per request with -v / LK_DEBUG. */
  debug(line: string): void {
    if (this.verbose) this.stderr.write(`${line}\n`);
  }
}

/**
 * Colour, highest first: --no-color; NO_COLOR (any value but empty); FORCE_COLOR (0 or false turn it off, anything
 * else on, even in a pipe); the config's `color` (auto, always, never); auto, which colours a terminal only.
 */
function decideColorMode(options: IoOptions, env: NodeJS.ProcessEnv): ColorMode {
  if (options.noColorFlag) return 'never';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return 'never';
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR === '0' || env.FORCE_COLOR === 'false' ? 'never' : 'always';
  return options.color ?? 'auto';
}

/**
 * Error lines ("lk: …") in red where stderr takes colour, by the same rules as the output: --no-color, NO_COLOR,
 * FORCE_COLOR, the config's `color`, else only on a terminal. It works without a run's IoStreams, since a usage error
 * comes before any command has built one; `storedColor` (the config's) is asked only when the flag and the
 * environment leave it open.
 */
export function paintErrorLines(
  text: string,
  stream: NodeJS.WritableStream & { isTTY?: boolean },
  env: NodeJS.ProcessEnv = process.env,
  argv: string[] = process.argv,
  storedColor: () => ColorMode = () => 'auto',
): string {
  const words = argv.slice(2);
  const flags = words.includes('--') ? words.slice(0, words.indexOf('--')) : words;
  const noColorFlag = flags.includes('--no-color');
  let mode = decideColorMode({ noColorFlag }, env);
  if (mode === 'auto') mode = storedColor();
  if (mode === 'never' || (mode === 'auto' && !stream.isTTY)) return text;
  // Red and back to the default colour, as picocolors' red writes them: no package to load as the program ends (a
  // require() of one by name, which the bundler leaves alone, finds none in the installed package or the single file).
  return text.replace(/^lk: .*$/gm, (line) => `\x1b[31m${line}\x1b[39m`);
}
