import { formatMoment } from '../util/units.js';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { replaceStateFileSync } from '../util/atomic-file.js';
import { sha256Hex } from '../util/hash.js';
import type { Waiter } from '../util/sleep.js';

/** The budget as the server last described it in X-RateLimit-* headers. */
export interface Budget {
  limit: number;
  remaining: number;
  /** Epoch ms at which the window starts over. */
  resetAt: number;
}

/** A window is a minute (docs/api.md, Limits): what headers say about the reset is held to it. */
const WINDOW_SECONDS = 60;
/** No instance allows more a minute than this; a larger number in a header is noise, not a budget. */
const MAX_BUDGET = 1_000_000;

/**
 * X-RateLimit-* as a budget, held to what docs/api.md describes: the reset within the minute (an epoch timestamp, 1e308 or
 * a negative number would otherwise mean a wait of decades or none), the counts whole and non-negative.
 */
export function budgetFromHeaders(headers: Record<string, string | string[] | undefined>, now: number): Budget | undefined {
  const limit = numberHeader(headers['x-ratelimit-limit']);
  const remaining = numberHeader(headers['x-ratelimit-remaining']);
  const reset = numberHeader(headers['x-ratelimit-reset']);
  if (limit === undefined || remaining === undefined || reset === undefined) return undefined;
  const count = (n: number) => Math.floor(clamp(n, 0, MAX_BUDGET));
  return { limit: count(limit), remaining: count(remaining), resetAt: now + clamp(reset, 0, WINDOW_SECONDS) * 1000 };
}

/** The longest Retry-After believed: a day (the export hour fits; 1e308 does not). */
const MAX_RETRY_AFTER_SECONDS = 86_400;

/** Retry-After in seconds (docs/api.md); an HTTP date is accepted too, as servers in front of an instance may send one. */
export function retryAfterSeconds(value: string | string[] | undefined, now: number): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined || raw.trim() === '') return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds, MAX_RETRY_AFTER_SECONDS);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : clamp((date - now) / 1000, 0, MAX_RETRY_AFTER_SECONDS);
}

function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, n));
}

function numberHeader(value: string | string[] | undefined): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const n = Number(raw);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * The last budget seen for one instance and account, kept in the cache folder so that a second `lk` (a cron job while
 * you use the terminal) paces itself from its first request. Named by a hash: the key itself is never written.
 */
export class BudgetStore {
  readonly file: string;

  /**
   * The budget belongs to the account (all its keys share it): `account` when known (learned from GET /v1/me, see
   * src/cache/known-accounts.ts), else the key stands for it. Only a hash of either names the file.
   */
  constructor(cacheDir: string, baseUrl: string, owner: { account: string } | { key: string }) {
    const who = 'account' in owner ? `account\n${owner.account}` : `key\n${owner.key}`;
    const name = sha256Hex(`${baseUrl}\n${who}`).slice(0, 32);
    this.file = join(cacheDir, 'ratelimit', `${name}.json`);
  }

  /** The stored budget while its window lasts; an unreadable, partial or stale file counts as none. */
  read(now: number): Budget | undefined {
    try {
      const value = JSON.parse(readFileSync(this.file, 'utf8')) as Partial<Budget>;
      const { limit, remaining, resetAt } = value;
      if (![limit, remaining, resetAt].every((n) => typeof n === 'number' && Number.isFinite(n))) return undefined;
      // A reset further away than a window (a file written by an older lk from an absurd header) is not believed.
      if (resetAt! > now + (WINDOW_SECONDS + 1) * 1000) return undefined;
      return resetAt! > now ? { limit: limit!, remaining: remaining!, resetAt: resetAt! } : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Temp file + rename, so that a concurrent reader sees the old budget or the new one, never half of one. A fast
   * listing sees hundreds of responses a second, and a rename per response cost more than parsing them: the file is
   * rewritten only for news another process needs (a new window, a budget running low), else once a second.
   */
  write(budget: Budget, now = Date.now()): void {
    if (!this.worthWriting(budget, now)) return;
    if (budget.limit > 0 && budget.remaining >= budget.limit) {
      // A whole budget is what a reader assumes without a file (a new window, an instance without a limit): nothing is
      // written, and an older file, whose count a reader would pace by, goes. Most runs then write nothing at all.
      this.written = { budget, at: now };
      return this.forget();
    }
    // Pacing state is a courtesy: a read-only cache folder must not fail the command.
    if (replaceStateFileSync(this.file, `${JSON.stringify(budget)}\n`)) this.written = { budget, at: now };
  }

  private forget(): void {
    try {
      rmSync(this.file, { force: true });
    } catch {
      // a read-only cache folder: its file is as stale as the window it names
    }
  }

  private written: { budget: Budget; at: number } | undefined;

  private worthWriting(budget: Budget, now: number): boolean {
    const last = this.written;
    if (!last) return true;
    const newWindow = Math.abs(budget.resetAt - last.budget.resetAt) > 1000;
    const runningLow = budget.remaining <= Math.max(5, budget.limit / 5);
    return newWindow || runningLow || now - last.at >= 1000;
  }
}

/** Why the pacer wants to wait, for the countdown and for --no-wait / --max-wait. */
export interface PacingWait {
  ms: number;
  /** true: the budget is spent (a rate-limit wait); false: spacing requests out. */
  spent: boolean;
  reason: string;
}

export interface PacerOptions {
  now: () => number;
  wait: Waiter;
  /** Throws to refuse a wait for a spent budget (--no-wait, --max-wait). */
  checkWait: (wait: PacingWait) => void;
  /** false (--no-wait): never space requests out, only refuse when the budget is spent. */
  spaceOut: boolean;
  /** The longest wait spent spacing requests out (--max-wait): pacing never waits longer than a refusal would. */
  maxSpacingMs?: number | undefined;
  store?: BudgetStore | undefined;
}

/** A budget observation, with the number of requests this process had started when the observed one was sent. */
interface Observed extends Budget {
  ticket: number;
}

/** A window is a minute (docs/api.md, Limits); used only to guess the next reset after one passes unobserved. */
const WINDOW_MS = 60_000;
/** X-RateLimit-Reset is in whole seconds: wait a little past it rather than arrive a moment early. */
const RESET_MARGIN_MS = 250;

/**
 * Decides when the next request may go, so that the rate limit is met by waiting rather than by a 429.
 * - The budget left is the last one reported, less the requests this process started since that one.
 * - Work that fits in what is left goes at once. Work that does not is spread evenly over the rest of the window,
 *   keeping one request back: several processes sharing a budget then slow each other down instead of colliding.
 * - A spent budget waits for the reset. Requests acquire one at a time, so concurrent pages queue here.
 */
export class Pacer {
  private observed: Observed | undefined;
  private started = 0;
  private lastStartAt = 0;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: PacerOptions) {
    const stored = options.store?.read(options.now());
    if (stored) this.observed = { ...stored, ticket: 0 };
  }

  /** The last budget the server reported (or the stored one, before the first response). */
  get budget(): Budget | undefined {
    if (!this.observed) return undefined;
    const { limit, remaining, resetAt } = this.observed;
    return { limit, remaining, resetAt };
  }

  /**
   * Waits until a request may go and returns its ticket (for `observe`). `demand` is how many requests the caller
   * still has to make, this one included.
   */
  acquire(demand: number, signal?: AbortSignal): Promise<number> {
    const turn = this.queue.then(() => this.waitForTurn(demand, signal));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /** A response's X-RateLimit-* headers, sent with request `ticket`. Older news than we hold is ignored. */
  observe(budget: Budget, ticket: number): void {
    const current = this.observed;
    if (current && ticket <= current.ticket && current.resetAt > this.options.now()) return;
    this.observed = { ...budget, ticket };
    this.options.store?.write(budget);
  }

  /** A 429 for a spent budget: nothing goes before `until` (Retry-After, within the minute's window). */
  hold(until: number): void {
    until = Math.min(until, this.options.now() + WINDOW_MS);
    const limit = this.observed?.limit ?? 0;
    this.observed = { limit, remaining: 0, resetAt: until, ticket: this.started };
    if (limit > 0) this.options.store?.write({ limit, remaining: 0, resetAt: until });
  }

  private async waitForTurn(demand: number, signal: AbortSignal | undefined): Promise<number> {
    for (;;) {
      signal?.throwIfAborted();
      const wait = this.nextWait(demand);
      if (!wait) break;
      if (wait.spent) this.options.checkWait(wait);
      const ms = wait.spent ? wait.ms : Math.min(wait.ms, this.options.maxSpacingMs ?? wait.ms);
      await this.options.wait(ms, wait.reason, signal);
      if (!wait.spent && ms < wait.ms) break;
    }
    this.started += 1;
    this.lastStartAt = this.options.now();
    return this.started;
  }

  private nextWait(demand: number): PacingWait | undefined {
    const now = this.options.now();
    this.rollWindow(now);
    const budget = this.observed;
    if (!budget) return undefined;
    const available = budget.remaining - (this.started - budget.ticket);
    const untilReset = budget.resetAt + RESET_MARGIN_MS - now;
    // Formatted only when there is a wait to announce (time zone data is loaded on first use).
    const resetsAt = () => formatMoment(budget.resetAt, now);
    const spent = (): PacingWait => ({
      ms: untilReset,
      spent: true,
      reason: `for the rate limit: ${budget.limit > 0 ? `the budget of ${budget.limit} requests a minute is spent` : 'the server asked to wait'} until ${resetsAt()}`,
    });
    if (available <= 0) return spent();
    if (!this.options.spaceOut || demand <= available) return undefined;
    // More to do than the budget allows: use what is left evenly until the reset, one request kept in reserve.
    if (available <= 1) return spent();
    const gap = this.lastStartAt + untilReset / available - now;
    return gap > 0 ? { ms: gap, spent: false, reason: `to pace requests: ${available} of ${budget.limit} left until ${resetsAt()}` } : undefined;
  }

  /** Once the reset has passed, the budget is whole again until a response says otherwise. */
  private rollWindow(now: number): void {
    const budget = this.observed;
    if (!budget || now < budget.resetAt + RESET_MARGIN_MS) return;
    this.observed =
      budget.limit > 0 ? { limit: budget.limit, remaining: budget.limit, resetAt: budget.resetAt + WINDOW_MS, ticket: this.started } : undefined;
  }
}
