import { sleep, type Waiter } from '../api/rate-limit.js';
import { onInterrupt } from '../interrupt.js';
import type { IoStreams } from '../io.js';

/** Shorter waits pass silently: a countdown that flashes by tells nobody anything. */
const ANNOUNCE_FROM_MS = 1000;
/** In a pipe, the same kind of wait is not announced again sooner than this (paced requests wait again and again). */
const REPEAT_AFTER_MS = 30_000;

interface Countdown {
  /** Shows a wait until `until`; returns the function that ends it. */
  begin(until: number, reason: string): () => void;
}

/**
 * The waiter behind every rate-limit and retry pause: a spinner counting the seconds down when stderr is a terminal,
 * one plain line otherwise, nothing with -q. Overlapping waits (concurrent pages) share one display.
 */
export function countdownWaiter(io: IoStreams, now: () => number = Date.now): Waiter {
  // A terminal that reports no width (a bare pty) would make the spinner's line arithmetic divide by zero.
  const spinnable = io.mayShowProgress && ((io.stderr as { columns?: number }).columns ?? 0) > 0;
  const display: Countdown | undefined = io.quiet ? undefined : spinnable ? new SpinnerCountdown(io.stderr, now) : new LineCountdown(io, now);
  return async (ms, reason, signal) => {
    if (!display || ms < ANNOUNCE_FROM_MS) return sleep(ms, reason, signal);
    const end = display.begin(now() + ms, reason);
    try {
      await sleep(ms, reason, signal);
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

interface Spinner {
  text: string;
  start(): unknown;
  stop(): unknown;
}

/** An ora spinner on stderr showing the longest of the current waits, its seconds counting down. */
class SpinnerCountdown implements Countdown {
  private readonly active = new Map<number, { until: number; reason: string }>();
  private nextId = 0;
  private spinner: Spinner | undefined;
  private loading: Promise<void> | undefined;
  private ticker: NodeJS.Timeout | undefined;
  private forgetInterrupt: (() => unknown) | undefined;

  constructor(
    private readonly stream: NodeJS.WritableStream,
    private readonly now: () => number,
  ) {}

  begin(until: number, reason: string): () => void {
    const id = this.nextId++;
    this.active.set(id, { until, reason });
    void this.show();
    return () => {
      this.active.delete(id);
      if (this.active.size === 0) this.hide();
      else this.render();
    };
  }

  private async show(): Promise<void> {
    this.loading ??= import('ora').then(({ default: ora }) => {
      // discardStdin off: lk may be reading a key or a file from stdin.
      this.spinner = ora({ stream: this.stream, discardStdin: false });
    });
    await this.loading;
    if (this.active.size === 0 || this.ticker) return;
    this.render();
    this.spinner!.start();
    this.ticker = setInterval(() => this.render(), 250);
    this.ticker.unref();
    // Ctrl-C: clear the spinner line before "lk: interrupted" is written.
    this.forgetInterrupt = onInterrupt(() => this.hide());
  }

  private render(): void {
    if (!this.spinner) return;
    const longest = [...this.active.values()].reduce<{ until: number; reason: string } | undefined>((a, b) => (a && a.until >= b.until ? a : b), undefined);
    if (longest) this.spinner.text = `waiting ${secondsLeft(longest.until, this.now())}s ${longest.reason}`;
  }

  private hide(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = undefined;
    this.forgetInterrupt?.();
    this.forgetInterrupt = undefined;
    this.spinner?.stop();
  }
}
