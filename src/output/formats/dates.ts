/**
 * Dates as a person reads them in a table ("3h ago", "in 2d", else the local day). Only the table format uses these:
 * json, csv and tsv keep the server's exact text.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "just now", "5m ago", "in 3h", "2d ago"; undefined beyond `within` ms, where a calendar date reads better. */
export function relativeTime(time: number, now: number, within = 7 * DAY): string | undefined {
  const diff = time - now;
  const abs = Math.abs(diff);
  if (abs >= within) return undefined;
  const minutes = Math.round(abs / MINUTE);
  const hours = Math.round(abs / HOUR);
  const days = Math.round(abs / DAY);
  // Each unit until the next one reads as a whole: 59m, then 1h; 23h, then 1d.
  const [amount, unit] = minutes < 60 ? [minutes, 'm'] : hours < 24 ? [hours, 'h'] : [days, 'd'];
  if (amount === 0) return 'just now';
  return diff < 0 ? `${amount}${unit} ago` : `in ${amount}${unit}`;
}

/** A moment in the last or next week as "3h ago" / "in 2d", else its local day: when something was added, read. */
export function shortDate(value: unknown, now: number): string {
  if (typeof value !== 'string' || value === '') return '';
  const time = Date.parse(value);
  if (Number.isNaN(time)) return value;
  return relativeTime(time, now) ?? localDay(time);
}

/** The local day and time of a moment, and how soon (or long ago) when it is within the day: when an episode airs. */
export function shortDateTime(value: unknown, now: number): string {
  if (typeof value !== 'string' || value === '') return '';
  const time = Date.parse(value);
  if (Number.isNaN(time)) return value;
  const relative = relativeTime(time, now, DAY - 30 * MINUTE);
  return relative ? `${localDateTime(value)} (${relative})` : localDateTime(value);
}

/** The local day and time, with how long ago (or until) when it is within a week: one value shown on its own. */
export function detailedDate(value: unknown, now: number): string {
  if (typeof value !== 'string' || value === '') return '';
  const time = Date.parse(value);
  if (Number.isNaN(time)) return value;
  const relative = relativeTime(time, now);
  return relative ? `${localDateTime(value)} (${relative})` : localDateTime(value);
}

export function localDay(time: number): string {
  const date = new Date(time);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Local day and time, for things that happen at a moment (an episode airing). */
export function localDateTime(value: unknown): string {
  if (typeof value !== 'string') return '';
  const time = Date.parse(value);
  if (Number.isNaN(time)) return value;
  const date = new Date(time);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${localDay(time)} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** An ISO 8601 date-time as servers send it ("2025-11-20T14:03:00.000Z"): what a table may shorten. */
export const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
