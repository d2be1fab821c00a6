/**
 * The friendly forms of --from/--to, resolved against the run's clock into what the API reads (docs/api.md: UTC, ISO 8601):
 * `12h`, `7d`, `2w` ago; `today` and `yesterday` as local days; a date-time without a zone (`2026-01-01T10:00`) as
 * local time. Day dates (`2026-01-31`) and date-times with a zone are returned unchanged. Undefined for anything else.
 */

import { parseRollingWindow, windowStart } from './rolling-window.js';

export type Edge = 'start' | 'end';

export function resolveFriendlyDate(raw: string, edge: Edge, now: number): string | undefined {
  const text = raw.trim().toLowerCase();
  const window = parseRollingWindow(text);
  if (window) return new Date(windowStart(now, window)).toISOString();
  if (text === 'today' || text === 'yesterday') {
    // A local day, whole: from its first millisecond, or to its last.
    const day = new Date(now);
    day.setHours(0, 0, 0, 0);
    if (text === 'yesterday') day.setDate(day.getDate() - 1);
    if (edge === 'end') {
      day.setDate(day.getDate() + 1);
      return new Date(day.getTime() - 1).toISOString();
    }
    return day.toISOString();
  }
  const local = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?$/.exec(raw.trim());
  if (local) {
    const [year, month, day, hour, minute, second = '0', fraction = '0'] = local.slice(1).map((part) => part ?? undefined) as string[];
    const date = new Date(
      Number(year),
      Number(month) - 1,
      Number(day),
      Number(hour),
      Number(minute),
      Number(second),
      Number(fraction.padEnd(3, '0')),
    );
    // new Date() rolls 2026-02-30 over into March: only a date that reads back the same is a real one.
    const same =
      date.getFullYear() === Number(year) &&
      date.getMonth() === Number(month) - 1 &&
      date.getDate() === Number(day) &&
      date.getHours() === Number(hour) &&
      date.getMinutes() === Number(minute);
    return same ? date.toISOString() : undefined;
  }
  return undefined;
}
