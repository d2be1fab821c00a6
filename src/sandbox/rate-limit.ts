/**
 * Per-account request budget (docs/api.md, Limits): fixed windows aligned on the clock's minutes, shared by all the keys of
 * an account. Requests without a valid key draw from a bucket of their remote address instead.
 */

export const WINDOW_MS = 60_000;
/** What the headers report when the limit is lifted (limit 0): a number no client will pace against. */
export const UNLIMITED = 2_147_483_647;

export interface BudgetState {
  /** Requests allowed per window (UNLIMITED when lifted). */
  limit: number;
  remaining: number;
  /** Whole seconds until the window starts over (ceil), ≥ 0. */
  reset: number;
  /** False when this request is beyond the budget. */
  allowed: boolean;
}

export class RateLimiter {
  private readonly buckets = new Map<string, { windowStart: number; used: number }>();

  constructor(
    /** Requests per minute; 0 lifts the limit (requests are still counted). */
    readonly limit: number,
  ) {}

  /** Counts one request against `bucket` and reports the budget after it. */
  take(bucket: string, now: number): BudgetState {
    return this.state(bucket, now, 1);
  }

  /** The budget of `bucket` without counting a request (preflights, injected faults). */
  peek(bucket: string, now: number): BudgetState {
    return this.state(bucket, now, 0);
  }

  reset(): void {
    this.buckets.clear();
  }

  private state(bucket: string, now: number, cost: number): BudgetState {
    const windowStart = Math.floor(now / WINDOW_MS) * WINDOW_MS;
    let state = this.buckets.get(bucket);
    if (!state || state.windowStart !== windowStart) {
      state = { windowStart, used: 0 };
      this.buckets.set(bucket, state);
    }
    state.used += cost;
    const reset = Math.max(0, Math.ceil((windowStart + WINDOW_MS - now) / 1000));
    if (this.limit === 0) return { limit: UNLIMITED, remaining: UNLIMITED, reset, allowed: true };
    return { limit: this.limit, remaining: Math.max(0, this.limit - state.used), reset, allowed: state.used <= this.limit };
  }
}
