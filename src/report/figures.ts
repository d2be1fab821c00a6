import type { Database } from '../mirror/database.js';
import { EVENT_COLUMNS_VERSION, refuseOlder } from '../mirror/migrations.js';
import {
  eventsByDay,
  finishesByDay,
  momentOf,
  ratedActive,
  repeatsByDomain,
  undatedByDomain,
  type DayRow,
  type MomentRow,
  type Window,
} from './queries.js';
import { TimeZone } from './time-zone.js';
import { text } from '../items/values.js';
import { DOMAINS, type Domain } from '../vocabulary.js';

/**
 * A year (or any period) in review, as numbers: what `lk report` draws and what `lk report --json` prints. Pure
 * reads of the mirror and arithmetic; days, months and weekdays are the account's own (its profile's time zone).
 * Undated events cannot be placed in a period: they are counted apart, over the whole mirror.
 */

/** What time spent is counted in: watch and play minutes, pages read, albums listened to. */
export type TimeUnit = 'minutes' | 'pages' | 'albums';
const UNITS_OF: Record<Domain, TimeUnit[]> = { MEDIA: ['minutes'], GAMES: ['minutes'], BOOKS: ['pages'], MUSIC: ['albums'] };
const ALL_UNITS: TimeUnit[] = ['minutes', 'pages', 'albums'];

export interface Period {
  /** First day, YYYY-MM-DD, local. */
  from: string;
  /** Last day (included), YYYY-MM-DD, local. */
  to: string;
}

export interface Moment {
  date: string;
  title: string | null;
  kind: string | null;
  domain: string | null;
}

export interface Streak {
  days: number;
  from: string;
  to: string;
}

export interface RatedWork {
  title: string | null;
  rating: number;
  url: string | null;
  entryId: string;
}

export interface Summary {
  events: number;
  finished: number;
  /** null where no event of the period carried that figure (the server did not send it). */
  time: Partial<Record<TimeUnit, number | null>>;
}

export interface DomainFigures extends Summary {
  eventsByMonth: number[];
  finishedByMonth: number[];
  timeByMonth: Partial<Record<TimeUnit, number[] | null>>;
  /** Entries active in the period (an event, or finished), best rated first; at most 10. */
  topRated: RatedWork[];
  /** Entries active in the period, by rating. */
  ratings: { rating: number; entries: number }[];
  /** Rewatches, replays, rereads: the distinct (entry, cycle > 1) with an event in the period. */
  repeats: number;
  longestStreak: Streak | null;
  /** Events by weekday, Monday first. */
  weekdays: number[];
  busiestWeekday: number | null;
  first: Moment | null;
  last: Moment | null;
  previous: Summary;
}

export interface ReportFigures {
  /** `through`: the period ends after the day the report was made, which it covers up to. */
  period: Period & { label: string; through?: string };
  previousPeriod: Period;
  timeZone: string;
  account: { username: string | null; displayName: string | null };
  /** YYYY-MM, one per month the period touches. */
  months: string[];
  total: DomainFigures;
  domains: Partial<Record<Domain, DomainFigures>>;
  /** Events without a date, over the whole mirror: in no month, no streak, no period. */
  undated: { events: number; byDomain: Partial<Record<Domain, number>> };
}

export interface ReportRequest {
  /** Local days, the last included. */
  period: Period & { label: string; through?: string };
  /** Used when the mirror's profile names no (known) time zone. */
  fallbackTimeZone: string;
}

const asDomain = (value: unknown): Domain | null => ((DOMAINS as readonly unknown[]).includes(value) ? (value as Domain) : null);

/** The profile the mirror holds: time zone, domains, names. */
function profileOf(db: Database): Record<string, unknown> {
  const row = db.prepare('SELECT json FROM profile LIMIT 1').get();
  if (!row) return {};
  const parsed = JSON.parse(row.json as string) as unknown;
  return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
}

export function timeZoneOf(db: Database, fallback: string): string {
  const named = profileOf(db).timezone;
  if (typeof named === 'string') {
    try {
      return new TimeZone(named).name;
    } catch {
      return fallback;
    }
  }
  return fallback;
}

const dayParts = (day: string) => day.split('-').map(Number) as [number, number, number];

/** The local days of a period as UTC instants: [start, end). */
function bounds(zone: TimeZone, period: Period): [number, number] {
  const [fy, fm, fd] = dayParts(period.from);
  const [ty, tm, td] = dayParts(period.to);
  return [zone.startOfDay(fy, fm, fd), zone.startOfDay(ty, tm, td + 1)];
}

/** The period of the same length just before. */
/**
 * What a period is compared with. A whole calendar year (or years) goes back by years, so that 2024 is compared with
 * 2023, leap day or not; a year so far (`through` a day before its end) with the same days of the year before (1
 * January to 26 November 2025 for 2026 so far), not the whole of it; any other days with as many days just before.
 */
export function previousOf(period: Period & { through?: string }): Period {
  const DAY = 86_400_000;
  const end = period.through !== undefined && period.through < period.to ? period.through : period.to;
  const [fy, fm, fd] = dayParts(period.from);
  const [ty, tm, td] = dayParts(period.to);
  if (fm === 1 && fd === 1 && tm === 12 && td === 31) {
    const years = ty - fy + 1;
    if (end === period.to) return { from: `${fy - years}-01-01`, to: `${fy - 1}-12-31` };
    const [ey, em, ed] = dayParts(end);
    // 29 February so far is compared up to 28 February of a year without one.
    const lastDay = new Date(Date.UTC(ey - years, em, 0)).getUTCDate();
    return { from: `${fy - years}-01-01`, to: `${ey - years}-${String(em).padStart(2, '0')}-${String(Math.min(ed, lastDay)).padStart(2, '0')}` };
  }
  const from = Date.parse(`${period.from}T00:00:00Z`);
  const to = Date.parse(`${end}T00:00:00Z`);
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { from: day(from - (to - from) - DAY), to: day(from - DAY) };
}

function monthsOf(period: Period): string[] {
  const [fy, fm] = dayParts(period.from);
  const [ty, tm] = dayParts(period.to);
  const months: string[] = [];
  for (let y = fy, m = fm; y < ty || (y === ty && m <= tm); m === 12 ? ((m = 1), (y += 1)) : (m += 1)) {
    months.push(`${y}-${String(m).padStart(2, '0')}`);
  }
  return months;
}

interface Reads {
  days: DayRow[];
  finishes: { day: string; domain: unknown; finished: number }[];
}

const DAY = 86_400_000;
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY;
const dayText = (n: number) => new Date(n * DAY).toISOString().slice(0, 10);
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

function summarise(reads: Reads, units: TimeUnit[]): Summary {
  const time: Summary['time'] = {};
  for (const unit of units) {
    const recorded = reads.days.map((row) => row[unit]).filter((value): value is number => typeof value === 'number');
    // Albums are counted from the events' kind, so always known; minutes and pages only where an event carried them.
    time[unit] = unit === 'albums' || recorded.length > 0 ? sum(recorded) : null;
  }
  return { events: sum(reads.days.map((row) => row.events)), finished: sum(reads.finishes.map((row) => row.finished)), time };
}

function longestStreak(days: Set<number>): Streak | null {
  let best: Streak | null = null;
  for (const day of [...days].sort((a, b) => a - b)) {
    if (days.has(day - 1)) continue; // not the start of a run
    let end = day;
    while (days.has(end + 1)) end += 1;
    if (!best || end - day + 1 > best.days) best = { days: end - day + 1, from: dayText(day), to: dayText(end) };
  }
  return best;
}

function moment(row: MomentRow | undefined): Moment | null {
  return row ? { date: row.date, title: text(row.title), kind: text(row.kind), domain: asDomain(row.domain) } : null;
}

const link = (value: unknown) => (typeof value === 'string' && /^https?:\/\//i.test(value) ? value : null);

function figuresFor(
  reads: Reads,
  previous: Reads,
  extra: { repeats: number; ratings: DomainFigures['ratings']; topRated: RatedWork[]; first: Moment | null; last: Moment | null },
  context: { months: string[]; units: TimeUnit[] },
): DomainFigures {
  const { months, units } = context;
  const monthIndex = new Map(months.map((month, index) => [month, index]));
  const eventsByMonth = months.map(() => 0);
  const finishedByMonth = months.map(() => 0);
  const timeByMonth: DomainFigures['timeByMonth'] = {};
  for (const unit of units) timeByMonth[unit] = months.map(() => 0);
  const weekdays = [0, 0, 0, 0, 0, 0, 0];
  const activeDays = new Set<number>();
  for (const row of reads.days) {
    const month = monthIndex.get(row.day.slice(0, 7));
    if (month === undefined) continue;
    eventsByMonth[month]! += row.events;
    for (const unit of units) if (typeof row[unit] === 'number') timeByMonth[unit]![month]! += row[unit];
    const n = dayNumber(row.day);
    weekdays[(((n + 3) % 7) + 7) % 7]! += row.events; // 1970-01-01 was a Thursday (3, counting from Monday)
    activeDays.add(n);
  }
  for (const row of reads.finishes) {
    const month = monthIndex.get(row.day.slice(0, 7));
    if (month !== undefined) finishedByMonth[month]! += row.finished;
  }
  const summary = summarise(reads, units);
  for (const unit of units) if (summary.time[unit] === null) timeByMonth[unit] = null;
  const busiest = Math.max(...weekdays);
  return {
    ...summary,
    eventsByMonth,
    finishedByMonth,
    timeByMonth,
    topRated: extra.topRated,
    ratings: extra.ratings,
    repeats: extra.repeats,
    longestStreak: longestStreak(activeDays),
    weekdays,
    busiestWeekday: busiest === 0 ? null : weekdays.indexOf(busiest),
    first: extra.first,
    last: extra.last,
    previous: summarise(previous, units),
  };
}

/** Domains the account uses: its profile's list when it has one, else those its entries hold. */
function domainsUsed(db: Database, profile: Record<string, unknown>): Domain[] {
  const listed = Array.isArray(profile.domains) ? profile.domains.map(asDomain).filter((domain) => domain !== null) : [];
  if (listed.length > 0) return DOMAINS.filter((domain) => listed.includes(domain));
  const held = new Set(
    db
      .prepare('SELECT DISTINCT domain FROM entries')
      .all()
      .map((row) => row.domain),
  );
  return DOMAINS.filter((domain) => held.has(domain));
}

/**
 * The period's instants, and the zone's offsets over them. Offsets only place the mirror's dated rows in days, so they
 * are worked out over the part of the period that holds data (`data`, two days either side) — the first offset
 * covering all before it, the last all after: a period of 0001 to 9999 costs what the data's years cost, not a
 * probe of 3.6 million days (which held lk serve's event loop for a minute, issue 57).
 */
function windowOf(zone: TimeZone, period: Period, data: DataSpan | undefined): Window {
  const [from, to] = bounds(zone, period);
  const start = data ? Math.max(from, data.first - 2 * DAY) : to;
  const end = data ? Math.min(to, data.last + 2 * DAY) : from;
  if (start >= end) return { from, to, segments: [{ until: to, offset: zone.offsetAt(from) }] };
  const segments = zone.offsetSegments(start, end);
  segments[segments.length - 1]!.until = to;
  return { from, to, segments };
}

/** The first and last instant of the dated data a report reads: events' dates and works' finish times. */
interface DataSpan {
  first: number;
  last: number;
}

/** The first and last year of the dated data a report reads (undefined: none). */
export function dataYears(db: Database): { first: number; last: number } | undefined {
  const span = dataSpan(db);
  return span && { first: new Date(span.first).getUTCFullYear(), last: new Date(span.last).getUTCFullYear() };
}

function dataSpan(db: Database): DataSpan | undefined {
  const row = db
    .prepare(
      `SELECT min(first) AS first, max(last) AS last FROM (
         SELECT min(date) AS first, max(date) AS last FROM history WHERE date IS NOT NULL
         UNION ALL SELECT min(finished_at), max(finished_at) FROM entries WHERE finished_at IS NOT NULL)`,
    )
    .get();
  if (typeof row?.first !== 'string' || typeof row.last !== 'string') return undefined;
  const first = Date.parse(row.first);
  const last = Date.parse(row.last);
  // A date JavaScript cannot read: the whole period is worked out, as before.
  return Number.isNaN(first) || Number.isNaN(last) ? { first: -8.64e15, last: 8.64e15 } : { first, last };
}

export function reportFigures(db: Database, request: ReportRequest): ReportFigures {
  refuseOlder(db, EVENT_COLUMNS_VERSION, 'lk report');
  // A year of a large library reads many pages of the mirror, some twice: keep them (64 MB at most, this connection).
  db.exec('PRAGMA cache_size = -65536');
  const profile = profileOf(db);
  const zone = new TimeZone(timeZoneOf(db, request.fallbackTimeZone));
  const period = request.period;
  const previousPeriod = previousOf(period);
  const data = dataSpan(db);
  const window = windowOf(zone, period, data);
  const previousWindow = windowOf(zone, previousPeriod, data);
  const reads: Reads = { days: eventsByDay(db, window), finishes: finishesByDay(db, window) };
  const before: Reads = { days: eventsByDay(db, previousWindow, { days: false }), finishes: finishesByDay(db, previousWindow) };
  const repeats = repeatsByDomain(db, window);
  const { counts: ratings, top: rated } = ratedActive(db, window);
  const months = monthsOf(period);
  const ofDomain = <T extends { domain: unknown }>(rows: T[], domain: Domain | null) =>
    domain === null ? rows : rows.filter((row) => row.domain === domain);
  const part = (domain: Domain | null, units: TimeUnit[]) =>
    figuresFor(
      { days: ofDomain(reads.days, domain), finishes: ofDomain(reads.finishes, domain) },
      { days: ofDomain(before.days, domain), finishes: ofDomain(before.finishes, domain) },
      {
        repeats: sum(ofDomain(repeats, domain).map((row) => row.repeats)),
        ratings: [
          ...ofDomain(ratings, domain).reduce(
            (counts, row) => counts.set(row.rating, (counts.get(row.rating) ?? 0) + row.entries),
            new Map<number, number>(),
          ),
        ]
          .sort(([a], [b]) => a - b)
          .map(([rating, entries]) => ({ rating, entries })),
        topRated: (domain === null ? rated.filter((row) => row.rank <= 10) : rated.filter((row) => row.domain === domain && row.rank_in_domain <= 10))
          .sort((a, b) => (domain === null ? a.rank - b.rank : a.rank_in_domain - b.rank_in_domain))
          .map((row) => ({ title: text(row.title), rating: row.rating, url: link(row.work_url) ?? link(row.entry_url), entryId: String(row.id) })),
        first: moment(momentOf(db, window, 'first', domain)),
        last: moment(momentOf(db, window, 'last', domain)),
      },
      { months, units },
    );
  const domains: ReportFigures['domains'] = {};
  for (const domain of domainsUsed(db, profile)) domains[domain] = part(domain, UNITS_OF[domain]);
  const byDomain: ReportFigures['undated']['byDomain'] = {};
  let undated = 0;
  for (const row of undatedByDomain(db)) {
    undated += row.events;
    const domain = asDomain(row.domain);
    if (domain) byDomain[domain] = row.events;
  }
  return {
    period,
    previousPeriod,
    timeZone: zone.name,
    account: { username: text(profile.username), displayName: text(profile.displayName ?? profile.display_name) },
    months,
    total: part(null, ALL_UNITS),
    domains,
    undated: { events: undated, byDomain },
  };
}

/** The first and last dated event in the mirror (UTC), to say where data is when a period has none. */
export function datedSpan(db: Database): { first: string; last: string } | undefined {
  const row = db.prepare('SELECT min(date) AS first, max(date) AS last FROM history WHERE date IS NOT NULL').get();
  return typeof row?.first === 'string' && typeof row.last === 'string' ? { first: row.first, last: row.last } : undefined;
}

/** No dated event and no finished work in the period: there is nothing to review. */
export function isEmpty(figures: ReportFigures): boolean {
  return figures.total.events === 0 && figures.total.finished === 0;
}
