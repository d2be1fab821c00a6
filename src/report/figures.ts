import type { Database } from '../mirror/open.js';
import { TimeZone } from './time-zone.js';

/**
 * A year (or any period) in review, as numbers: what `lk report` draws and what `lk report --json` prints. Pure
 * reads of the mirror and arithmetic; days, months and weekdays are the account's own (its profile's time zone).
 * Undated events cannot be placed in a period: they are counted apart, over the whole mirror.
 */

export const DOMAINS = ['MEDIA', 'GAMES', 'BOOKS', 'MUSIC'] as const;
export type Domain = (typeof DOMAINS)[number];

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
  period: Period & { label: string };
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

interface EventRow {
  ms: number;
  date: string;
  kind: string | null;
  cycle: number | null;
  entryId: string | null;
  domain: Domain | null;
  minutes: number | null;
  pages: number | null;
  title: string | null;
}

interface FinishRow {
  ms: number;
  entryId: string;
  domain: Domain | null;
}

export interface ReportRequest {
  /** Local days, the last included. */
  period: Period & { label: string };
  /** Used when the mirror's profile names no (known) time zone. */
  fallbackTimeZone: string;
}

const asDomain = (value: unknown): Domain | null => ((DOMAINS as readonly unknown[]).includes(value) ? (value as Domain) : null);
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const str = (value: unknown): string | null => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null);

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
export function previousOf(period: Period): Period {
  const DAY = 86_400_000;
  const from = Date.parse(`${period.from}T00:00:00Z`);
  const to = Date.parse(`${period.to}T00:00:00Z`);
  const [fy, fm, fd] = dayParts(period.from);
  const [ty, tm, td] = dayParts(period.to);
  // A whole calendar year (or years) goes back by years, so that 2024 is compared with 2023, leap day or not.
  if (fm === 1 && fd === 1 && tm === 12 && td === 31) {
    const years = ty - fy + 1;
    return { from: `${fy - years}-01-01`, to: `${fy - 1}-12-31` };
  }
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

function readEvents(db: Database, from: number, to: number): EventRow[] {
  const rows = db
    .prepare(
      `SELECT h.date, h.kind, h.cycle, h.entry_id, coalesce(e.domain, w.domain) AS domain,
              json_extract(h.json, '$.minutes') AS minutes, json_extract(h.json, '$.pages') AS pages,
              coalesce(w.title, e.title) AS title
       FROM history h LEFT JOIN entries e ON e.id = h.entry_id LEFT JOIN works w ON w.id = coalesce(h.work_id, e.work_id)
       WHERE h.date IS NOT NULL AND h.date >= :from AND h.date < :to`,
    )
    .all({ from: new Date(from).toISOString(), to: new Date(to).toISOString() });
  const events: EventRow[] = [];
  for (const row of rows) {
    const ms = Date.parse(row.date as string);
    if (Number.isNaN(ms)) continue;
    events.push({
      ms,
      date: row.date as string,
      kind: str(row.kind),
      cycle: num(row.cycle),
      entryId: str(row.entry_id),
      domain: asDomain(row.domain),
      minutes: num(row.minutes),
      pages: num(row.pages),
      title: str(row.title),
    });
  }
  return events;
}

function readFinishes(db: Database, from: number, to: number): FinishRow[] {
  return db
    .prepare('SELECT id, finished_at, domain FROM entries WHERE finished_at IS NOT NULL AND finished_at >= :from AND finished_at < :to')
    .all({ from: new Date(from).toISOString(), to: new Date(to).toISOString() })
    .map((row) => ({ ms: Date.parse(row.finished_at as string), entryId: String(row.id), domain: asDomain(row.domain) }))
    .filter((row) => !Number.isNaN(row.ms));
}

interface RatedEntry extends RatedWork {
  domain: Domain | null;
  titleKey: string;
}

function readRatedEntries(db: Database): Map<string, RatedEntry> {
  const rows = db
    .prepare(
      `SELECT e.id, e.rating, e.domain, coalesce(w.title, e.title) AS title, coalesce(e.title_key, lower(w.title), '') AS title_key,
              w.url AS work_url, json_extract(e.json, '$.url') AS entry_url
       FROM entries e LEFT JOIN works w ON w.id = e.work_id WHERE e.rating IS NOT NULL`,
    )
    .all();
  const link = (value: unknown) => (typeof value === 'string' && /^https?:\/\//i.test(value) ? value : null);
  return new Map(
    rows.map((row) => [
      String(row.id),
      {
        entryId: String(row.id),
        rating: Number(row.rating),
        domain: asDomain(row.domain),
        title: str(row.title),
        titleKey: String(row.title_key),
        url: link(row.work_url) ?? link(row.entry_url),
      },
    ]),
  );
}

const FINISHING_KIND = 'ALBUM_FINISHED';

function summarise(events: EventRow[], finishes: FinishRow[], units: TimeUnit[]): Summary {
  const time: Summary['time'] = {};
  for (const unit of units) time[unit] = timeTotal(events, unit);
  return { events: events.length, finished: finishes.length, time };
}

function timeValue(event: EventRow, unit: TimeUnit): number | null {
  if (unit === 'albums') return event.kind === FINISHING_KIND ? 1 : null;
  return event[unit];
}

function timeTotal(events: EventRow[], unit: TimeUnit): number | null {
  let total: number | null = null;
  for (const event of events) {
    const value = timeValue(event, unit);
    if (value !== null) total = (total ?? 0) + value;
  }
  return unit === 'albums' ? (total ?? 0) : total;
}

function figuresFor(
  events: EventRow[],
  finishes: FinishRow[],
  previous: { events: EventRow[]; finishes: FinishRow[] },
  rated: Map<string, RatedEntry>,
  context: { zone: TimeZone; months: string[]; units: TimeUnit[] },
): DomainFigures {
  const { zone, months, units } = context;
  const monthIndex = new Map(months.map((month, index) => [month, index]));
  const monthOf = (ms: number) => {
    const local = zone.localDate(ms);
    return monthIndex.get(`${local.year}-${String(local.month).padStart(2, '0')}`) ?? -1;
  };
  const eventsByMonth = months.map(() => 0);
  const finishedByMonth = months.map(() => 0);
  const timeByMonth: DomainFigures['timeByMonth'] = {};
  for (const unit of units) timeByMonth[unit] = months.map(() => 0);
  const weekdays = [0, 0, 0, 0, 0, 0, 0];
  const activeDays = new Set<number>();
  const repeats = new Set<string>();
  const active = new Set<string>();
  let first: EventRow | undefined;
  let last: EventRow | undefined;
  for (const event of events) {
    const local = zone.localDate(event.ms);
    const month = monthIndex.get(`${local.year}-${String(local.month).padStart(2, '0')}`) ?? -1;
    if (month >= 0) {
      eventsByMonth[month]! += 1;
      for (const unit of units) {
        const value = timeValue(event, unit);
        if (value !== null) timeByMonth[unit]![month]! += value;
      }
    }
    weekdays[local.weekday]! += 1;
    activeDays.add(local.dayNumber);
    if (event.entryId !== null) {
      active.add(event.entryId);
      if (event.cycle !== null && event.cycle > 1) repeats.add(`${event.entryId}\u0000${event.cycle}`);
    }
    if (!first || event.ms < first.ms) first = event;
    if (!last || event.ms >= last.ms) last = event;
  }
  for (const finish of finishes) {
    const month = monthOf(finish.ms);
    if (month >= 0) finishedByMonth[month]! += 1;
    active.add(finish.entryId);
  }
  const summary = summarise(events, finishes, units);
  for (const unit of units) if (summary.time[unit] === null) timeByMonth[unit] = null;
  const activeRated = [...active].flatMap((id) => rated.get(id) ?? []);
  const ratingCounts = new Map<number, number>();
  for (const entry of activeRated) ratingCounts.set(entry.rating, (ratingCounts.get(entry.rating) ?? 0) + 1);
  const busiest = Math.max(...weekdays);
  return {
    ...summary,
    eventsByMonth,
    finishedByMonth,
    timeByMonth,
    topRated: activeRated
      .sort((a, b) => b.rating - a.rating || byText(a.titleKey, b.titleKey) || byText(a.entryId, b.entryId))
      .slice(0, 10)
      .map(({ title, rating, url, entryId }) => ({ title, rating, url, entryId })),
    ratings: [...ratingCounts].sort(([a], [b]) => a - b).map(([rating, entries]) => ({ rating, entries })),
    repeats: repeats.size,
    longestStreak: longestStreak(activeDays),
    weekdays,
    busiestWeekday: busiest === 0 ? null : weekdays.indexOf(busiest),
    first: first ? moment(first) : null,
    last: last ? moment(last) : null,
    previous: summarise(previous.events, previous.finishes, units),
  };
}

/** Text in SQLite's order (by code unit), so that `ORDER BY title_key` gives the same ties. */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function moment(event: EventRow): Moment {
  return { date: event.date, title: event.title, kind: event.kind, domain: event.domain };
}

const dayText = (dayNumber: number) => new Date(dayNumber * 86_400_000).toISOString().slice(0, 10);

function longestStreak(days: Set<number>): Streak | null {
  let best: Streak | null = null;
  for (const day of days) {
    if (days.has(day - 1)) continue; // not the start of a run
    let end = day;
    while (days.has(end + 1)) end += 1;
    const length = end - day + 1;
    if (!best || length > best.days || (length === best.days && dayText(day) < best.from))
      best = { days: length, from: dayText(day), to: dayText(end) };
  }
  return best;
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

export function reportFigures(db: Database, request: ReportRequest): ReportFigures {
  const profile = profileOf(db);
  const zone = new TimeZone(timeZoneOf(db, request.fallbackTimeZone));
  const period = request.period;
  const previousPeriod = previousOf(period);
  const [start, end] = bounds(zone, period);
  const [previousStart, previousEnd] = bounds(zone, previousPeriod);
  const allEvents = readEvents(db, Math.min(start, previousStart), Math.max(end, previousEnd));
  const allFinishes = readFinishes(db, Math.min(start, previousStart), Math.max(end, previousEnd));
  const within = <T extends { ms: number }>(rows: T[], from: number, to: number) => rows.filter((row) => row.ms >= from && row.ms < to);
  const events = within(allEvents, start, end);
  const finishes = within(allFinishes, start, end);
  const previous = { events: within(allEvents, previousStart, previousEnd), finishes: within(allFinishes, previousStart, previousEnd) };
  const rated = readRatedEntries(db);
  const months = monthsOf(period);
  const ofDomain = <T extends { domain: Domain | null }>(rows: T[], domain: Domain) => rows.filter((row) => row.domain === domain);
  const domains: ReportFigures['domains'] = {};
  for (const domain of domainsUsed(db, profile)) {
    domains[domain] = figuresFor(
      ofDomain(events, domain),
      ofDomain(finishes, domain),
      { events: ofDomain(previous.events, domain), finishes: ofDomain(previous.finishes, domain) },
      rated,
      { zone, months, units: UNITS_OF[domain] },
    );
  }
  const undatedRows = db
    .prepare(
      `SELECT coalesce(e.domain, w.domain) AS domain, count(*) AS n FROM history h LEFT JOIN entries e ON e.id = h.entry_id
       LEFT JOIN works w ON w.id = coalesce(h.work_id, e.work_id) WHERE h.date IS NULL GROUP BY 1`,
    )
    .all();
  const byDomain: ReportFigures['undated']['byDomain'] = {};
  let undated = 0;
  for (const row of undatedRows) {
    undated += Number(row.n);
    const domain = asDomain(row.domain);
    if (domain) byDomain[domain] = Number(row.n);
  }
  return {
    period,
    previousPeriod,
    timeZone: zone.name,
    account: { username: str(profile.username), displayName: str(profile.displayName ?? profile.display_name) },
    months,
    total: figuresFor(events, finishes, previous, rated, { zone, months, units: ALL_UNITS }),
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
