/**
 * A rolling window: the span of time that ends now and reaches back a number of hours, days or weeks, each counted
 * as 60 × 60, 24 × 60 × 60 and 7 × 24 × 60 × 60 seconds (not calendar days). Once for all of lk: lk status's "last 7
 * days" and "last 30 days", and `--from 30d` / `--since 2w` (lk history, lk feed, lk report, which takes the day the
 * window starts on).
 */

const UNIT_MS = { h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

export type WindowUnit = keyof typeof UNIT_MS;

export interface RollingWindow {
  readonly count: number;
  readonly unit: WindowUnit;
}

/** The first moment (ms) of the window that ends at `now`. */
export function windowStart(now: number, window: RollingWindow): number {
  return now - window.count * UNIT_MS[window.unit];
}

/** The last `days` days up to `now`, as [from, to] in ms: lk status's "last 7 days". */
export function lastDays(now: number, days: number): [from: number, to: number] {
  return [windowStart(now, { count: days, unit: 'd' }), now];
}

/**
 * `30d`, `2w`, `12h` (any case, spaces around), as a flag takes it: up to `digits` digits and one of `units`.
 * Undefined for anything else.
 */
export function parseRollingWindow(raw: string, { units = 'hdw', digits = 6 }: { units?: string; digits?: number } = {}): RollingWindow | undefined {
  const match = new RegExp(`^(\\d{1,${digits}})([${units}])$`).exec(raw.trim().toLowerCase());
  if (!match || !(match[2]! in UNIT_MS)) return undefined;
  return { count: Number(match[1]), unit: match[2] as WindowUnit };
}
