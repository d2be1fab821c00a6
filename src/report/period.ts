import { UsageError } from '../util/errors.js';
import { parseRollingWindow, windowStart } from '../util/rolling-window.js';
import type { Period } from './figures.js';

/**
 * Which days a report covers, from --year or --from/--to: checked before the mirror is opened. By default the last
 * complete year, or this year so far once it is December (the month people look back in).
 */
export interface PeriodFlags {
  year?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

const DAY_FORM = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A day as YYYY-MM-DD, or as lk feed takes it: 7d, 2w (the day a rolling window back from now starts on, as lk status
 * and lk history count it: util/rolling-window.ts), today, yesterday.
 */
function day(flag: string, raw: string, today: string): string {
  const text = raw.trim().toLowerCase();
  const window = parseRollingWindow(text, { units: 'dw', digits: 5 }) ?? (text === 'today' ? 0 : text === 'yesterday' ? 1 : undefined);
  if (window !== undefined) {
    // Whole days back from today's own: the day of the window's first moment, without the time of day.
    const back = typeof window === 'number' ? { count: window, unit: 'd' as const } : window;
    return new Date(windowStart(Date.parse(`${today}T00:00:00Z`), back)).toISOString().slice(0, 10);
  }
  const match = DAY_FORM.exec(raw);
  const date = match ? new Date(`${raw}T00:00:00Z`) : undefined;
  if (!date || Number.isNaN(date.getTime()) || !date.toISOString().startsWith(raw))
    throw new UsageError(`invalid ${flag} "${raw}": expected a day like 2025-03-01, 7d, 2w, today or yesterday`);
  return raw;
}

function year(raw: string): number {
  const value = Number(raw);
  if (!/^\d{4}$/.test(raw) || value < 1970) throw new UsageError(`invalid --year "${raw}": expected a year like 2025`);
  return value;
}

/** `today` is the local date (YYYY-MM-DD) the run starts on. */
export function reportPeriod(flags: PeriodFlags, today: string): Period & { label: string; through?: string } {
  if (flags.year !== undefined && (flags.from !== undefined || flags.to !== undefined))
    throw new UsageError('--year or --from/--to, not both', 'A year: --year 2025. Any days: --from 2025-03-01 --to 2025-08-31.');
  if (flags.to !== undefined && flags.from === undefined) throw new UsageError('--to needs --from (the first day of the report)');
  if (flags.from !== undefined) {
    const from = day('--from', flags.from, today);
    const to = flags.to === undefined ? today : day('--to', flags.to, today);
    if (from > to) throw new UsageError(`--from ${from} is after --to ${to}: a report needs at least one day`);
    return { from, to, label: `${from} to ${to}`, ...soFar(to, today) };
  }
  const [thisYear, month] = today.split('-').map(Number) as [number, number];
  const chosen = flags.year === undefined ? (month === 12 ? thisYear : thisYear - 1) : year(flags.year);
  return { from: `${chosen}-01-01`, to: `${chosen}-12-31`, label: String(chosen), ...soFar(`${chosen}-12-31`, today) };
}

/** A period that ends after today is reviewed so far: `through` says up to which day. */
function soFar(to: string, today: string): { through?: string } {
  return to > today ? { through: today } : {};
}

/** The file a report is written to when -o names none: lk-report-2025.html, lk-report-2025-03-01-to-2025-08-31.html. */
export function defaultFileName(period: Period & { label: string }): string {
  const name = /^\d{4}$/.test(period.label) ? period.label : `${period.from}-to-${period.to}`;
  return `lk-report-${name}.html`;
}

/**
 * A period cut to the calendar years that hold the mirror's dated data (`years`) and this one: outside them every
 * figure is zero, and a period of ten thousand years (an assistant's 0001-01-01 to 9999-12-31) is 120,000 months of
 * zeros — megabytes no one can read. A period within those years is as given; one wholly outside is cut to its first
 * year. Whole years are kept, so a year in review, or any days of one, is the same whatever the data.
 */
export function withinDataYears(
  period: Period & { label: string; through?: string },
  years: { first: number; last: number } | undefined,
  today: string,
): Period & { label: string; through?: string } {
  const thisYear = Number(today.slice(0, 4));
  const firstDay = `${String(Math.min(years?.first ?? thisYear, thisYear)).padStart(4, '0')}-01-01`;
  const lastDay = `${String(Math.max(years?.last ?? thisYear, thisYear)).padStart(4, '0')}-12-31`;
  let from = period.from > firstDay ? period.from : firstDay;
  let to = period.to < lastDay ? period.to : lastDay;
  if (from > to) {
    from = period.from;
    to = period.to < `${period.from.slice(0, 4)}-12-31` ? period.to : `${period.from.slice(0, 4)}-12-31`;
  }
  if (from === period.from && to === period.to) return period;
  return { from, to, label: `${from} to ${to}`, ...soFar(to, today) };
}
