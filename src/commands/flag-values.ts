import { UsageError } from '../util/errors.js';
import { resolveFriendlyDate, type Edge } from '../util/relative-date.js';
import { durationMs } from '../util/duration.js';

/**
 * The values a flag or operand may take, checked once each, in the words every command uses: `flag.duration` and
 * `flag.date` (./flags.ts) call these as commander parses the line, so a bad value is a usage error (exit 2) before
 * anything runs; a command's run receives the typed value. `flag.count`'s whole numbers are util/whole-number.ts,
 * shared with lk serve's query parameters.
 */

/**
 * `YYYY-MM-DD` or a full ISO 8601 date-time; checked here so that a typo never reaches the server. With `friendly`,
 * also `7d`, `2w`, `12h`, `today`, `yesterday` and local date-times without a zone (src/util/relative-date.ts).
 */
export function isoDate(flag: string, raw: string, friendly?: { edge: Edge; now: number }): string {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  if (day) {
    const date = new Date(`${raw}T00:00:00Z`);
    if (!Number.isNaN(date.getTime()) && date.toISOString().startsWith(raw)) return raw;
  } else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(raw) && !Number.isNaN(Date.parse(raw))) {
    return raw;
  }
  const resolved = friendly && resolveFriendlyDate(raw, friendly.edge, friendly.now);
  if (resolved !== undefined) return resolved;
  const forms = friendly
    ? '2026-01-31, 2026-01-31T18:00:00Z, 2026-01-31T18:00 (local time), 7d, 2w, 12h, today or yesterday'
    : '2026-01-31 or 2026-01-31T18:00:00Z';
  throw new UsageError(`invalid ${flag} "${raw}": expected a date like ${forms}`);
}

/**
 * A date flag as parsed: its form checked at once, its moment read when the run knows the time (`7d` is seven days
 * before the run's clock, which tests set): `at(now)` is what isoDate gives for it.
 */
export interface DateValue {
  readonly raw: string;
  at(now: number): string;
}

export function dateValue(flag: string, raw: string, edge: Edge): DateValue {
  // Whether a form is a date does not depend on the moment it is read at.
  isoDate(flag, raw, { edge, now: 0 });
  return { raw, at: (now) => isoDate(flag, raw, { edge, now }) };
}

/** An id for a path segment: checked here, before any request; src/api/endpoints.ts pathOf encodes it. */
export function entityId(what: string, raw: string): string {
  if (!/^[A-Za-z0-9._~-]{1,128}$/.test(raw) || raw === '.' || raw === '..') {
    throw new UsageError(`invalid ${what} id "${raw}": expected letters, digits, '-', '_', '.' or '~'`);
  }
  return raw;
}

/** `45s`, `30m`, `6h`, `2d`, `1w`, as milliseconds. */
export function duration(flag: string, raw: string): number {
  const ms = durationMs(raw);
  if (ms === undefined) throw new UsageError(`invalid ${flag} "${raw}": expected a duration such as 30m, 6h or 2d`);
  return ms;
}
