import { sleep, type Waiter } from '../../util/sleep.js';
import { onInterrupt } from '../../util/interrupt.js';
import type { IoStreams } from './io.js';
import { sanitizeText } from './sanitize.js';
import { formatCount } from '../../util/units.js';

/** Shorter waits pass silently: a countdown that flashes by tells nobody anything. */
const ANNOUNCE_FROM_MS = 1000;
/** In a pipe, the same kind of wait is not announced again sooner than this (paced requests wait again and again). */
const REPEAT_AFTER_MS = 30_000;
/** A listing that is over sooner than this shows no spinner: it would only flash. */
const PAGING_SHOWN_AFTER_MS = 250;

/** One part of the status line ("312 / 4,210 entries", "waiting 12s for the rate limit"), set and cleared by its owner. */
export interface StatusPart {
  set(text: string): void;
  close(): void;
}

/**
 * The one spinner on stderr (ora), shared by everything that reports progress: paging counts, a download, a
 * rate-limit countdown. Each owner sets its own part and the line shows them together, "312 / 4,210 entries ·
 * waiting 12s for the rate limit", so that two spinners never fight over the same line. ora is loaded with the
 * first text, and the line is cleared as soon as no part has any.
 */
class StatusLine {
  private readonly parts = new Map<number, { rank: number; text: string }>();
  private nextId = 0;
  private spinner: Spinner | undefined;
  private loading: Promise<void> | undefined;
  private forgetInterrupt: (() => unknown) | undefined;

  constructor(private readonly io: IoStreams) {
    // A pager took the terminal: the spinner must not draw over it.
    io.onPagerStart(() => this.hide());
  }

  /** A new part; lower ranks come first on the line (what is being done, then why it is waiting). */
  open(rank = 0): StatusPart {
    const id = this.nextId++;
    return {
      set: (text) => {
        this.parts.set(id, { rank, text });
        this.refresh();
      },
      close: () => {
        if (this.parts.delete(id)) this.refresh();
      },
    };
  }

  private refresh(): void {
    const text = [...this.parts.values()]
      .filter((part) => part.text !== '')
      .sort((a, b) => a.rank - b.rank)
      .map((part) => part.text)
      .join(' · ');
    if (text === '' || this.io.paging) return this.hide();
    if (!this.spinner) {
      this.loading ??= import('ora').then(
        ({ default: ora }) => {
          this.spinner = ora({
            stream: this.io.stderr,
            // Decided here (a terminal, not -q, not TERM=dumb): ora would otherwise print "- text" lines where it
            // thinks the terminal is not interactive, e.g. under CI=true.
            isEnabled: true,
            // lk may be reading a key or a file from stdin.
            discardStdin: false,
            color: this.io.stderrColorEnabled ? 'cyan' : false,
          });
          this.refresh();
        },
        () => {}, // no spinner is better than a failed command
      );
      return;
    }
    // The frame and a blank come first; a line that wraps could not be cleared. (The texts are lk's own, one cell
    // per character: string-width, which every command would then load at start-up, is not needed to cut them.)
    const room = ((this.io.stderr as { columns?: number }).columns ?? 80) - 3;
    const chars = [...sanitizeText(text)];
    this.spinner.text = chars.length > room ? `${chars.slice(0, Math.max(0, room - 1)).join('')}…` : chars.join('');
    if (this.spinner.isSpinning) return;
    this.spinner.start();
    // Ctrl-C: clear the line before "lk: interrupted" is written.
    this.forgetInterrupt = onInterrupt(() => this.hide());
  }

  private hide(): void {
    this.forgetInterrupt?.();
    this.forgetInterrupt = undefined;
    if (this.spinner?.isSpinning) this.spinner.stop();
  }
}

interface Spinner {
  text: string;
  readonly isSpinning: boolean;
  start(): unknown;
  stop(): unknown;
}

const statusLines = new WeakMap<IoStreams, StatusLine>();

/**
 * The status line of this run, or undefined where progress is not shown: stderr not a terminal (a pipe, a cron mail),
 * -q, TERM=dumb, or a terminal that reports no width (ora's line arithmetic divides by it).
 */
export function statusLine(io: IoStreams): StatusLine | undefined {
  if (!io.mayShowProgress || !(((io.stderr as { columns?: number }).columns ?? 0) > 0)) return undefined;
  let line = statusLines.get(io);
  if (!line) statusLines.set(io, (line = new StatusLine(io)));
  return line;
}

/** Progress of a listing that follows pages: told after each page, ended (and cleared) before the listing's notices. */
export interface ListingProgress {
  page(shown: number, total: number | undefined, more: boolean): void;
  end(): void;
}

/**
 * "312 / 4,210 entries" on the status line while --all (or --max) reads page after page: it appears once the listing
 * has taken a moment and more pages are coming, so that a single page or a quick listing never flashes a spinner
 * (nor loads ora).
 */
export function listingProgress(io: IoStreams, noun: string): ListingProgress {
  const line = statusLine(io);
  if (!line) return { page() {}, end() {} };
  let part: StatusPart | undefined;
  let timer: NodeJS.Timeout | undefined;
  let text = '';
  let ended = false;
  return {
    page(shown, total, more) {
      text = total !== undefined && total >= shown ? `${formatCount(shown)} / ${formatCount(total)} ${noun}` : `${formatCount(shown)} ${noun}`;
      if (part) part.set(text);
      else if (more && !timer && !ended) {
        timer = setTimeout(() => (part = line.open()).set(text), PAGING_SHOWN_AFTER_MS);
        timer.unref();
      }
    },
    end() {
      ended = true;
      clearTimeout(timer);
      part?.close();
    },
  };
}

interface Countdown {
  /** Shows a wait until `until`; returns the function that ends it. */
  begin(until: number, reason: string): () => void;
}

/**
 * The waiter behind every rate-limit and retry pause: seconds counting down on the status line when stderr is a
 * terminal, one plain line otherwise, nothing with -q. Overlapping waits (concurrent pages) share one display.
 */
export function countdownWaiter(io: IoStreams, now: () => number = Date.now, pause: Waiter = sleep): Waiter {
  const line = statusLine(io);
  const display: Countdown | undefined = io.quiet ? undefined : line ? new SpinnerCountdown(line, now) : new LineCountdown(io, now);
  return async (ms, reason, signal) => {
    if (!display || ms < ANNOUNCE_FROM_MS) return pause(ms, reason, signal);
    const end = display.begin(now() + ms, reason);
    try {
      await pause(ms, reason, signal);
    } finally {
      end();
    }
  };
}

function secondsLeft(until: number, now: number): number {
  return Math.max(0, Math.ceil((until - now) / 1000));
}

/** One line per wait, e.g. "lk: waiting 42s for the rate limit: …"; repeats of the same kind are dropped. */
class LineCountdown implements Countdown {
  private readonly active = new Set<number>();
  private readonly lastShown = new Map<string, number>();

  constructor(
    private readonly io: IoStreams,
    private readonly now: () => number,
  ) {}

  begin(until: number, reason: string): () => void {
    const now = this.now();
    const kind = reason.replace(/\d+/g, '#');
    const covered = [...this.active].some((other) => other >= until - 1000);
    const shownAt = this.lastShown.get(kind);
    if (!covered && (shownAt === undefined || now - shownAt > REPEAT_AFTER_MS)) {
      this.io.info(`lk: waiting ${secondsLeft(until, now)}s ${reason}`);
      this.lastShown.set(kind, now);
    }
    this.active.add(until);
    return () => this.active.delete(until);
  }
}

/** The longest of the current waits on the status line, its seconds counting down. */
class SpinnerCountdown implements Countdown {
  private readonly active = new Map<number, { until: number; reason: string }>();
  private nextId = 0;
  private part: StatusPart | undefined;
  private ticker: NodeJS.Timeout | undefined;

  constructor(
    private readonly line: StatusLine,
    private readonly now: () => number,
  ) {}

  begin(until: number, reason: string): () => void {
    const id = this.nextId++;
    this.active.set(id, { until, reason });
    if (!this.part) {
      this.part = this.line.open(1);
      this.ticker = setInterval(() => this.render(), 250);
      this.ticker.unref();
    }
    this.render();
    return () => {
      this.active.delete(id);
      if (this.active.size > 0) return this.render();
      clearInterval(this.ticker);
      this.part?.close();
      this.part = undefined;
    };
  }

  private render(): void {
    const longest = [...this.active.values()].reduce<{ until: number; reason: string } | undefined>(
      (a, b) => (a && a.until >= b.until ? a : b),
      undefined,
    );
    if (longest) this.part?.set(`waiting ${secondsLeft(longest.until, this.now())}s ${longest.reason}`);
  }
}
