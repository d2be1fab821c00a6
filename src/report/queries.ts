import type { Database } from '../mirror/database.js';

/**
 * The report's reads of the mirror. SQLite does the counting: a year of 100,000 events comes back as at most a few
 * thousand rows (one per local day and domain), since making a JavaScript object of every event costs more than
 * the rest of the report. Local days come from UTC dates through the zone's offsets (TimeZone.offsetSegments),
 * written into the query as a CASE.
 */

export interface Window {
  /** UTC instants, [from, to). */
  from: number;
  to: number;
  segments: { until: number; offset: number }[];
}

export interface DayRow {
  /** YYYY-MM-DD, local. */
  day: string;
  domain: unknown;
  events: number;
  minutes: number | null;
  pages: number | null;
  albums: number;
}

export interface MomentRow {
  date: string;
  title: unknown;
  kind: unknown;
  domain: unknown;
}

export interface RatedRow {
  id: unknown;
  rating: number;
  domain: unknown;
  title: unknown;
  work_url: unknown;
  entry_url: unknown;
  rank: number;
  rank_in_domain: number;
}

/** SQLite compares dates as text: an instant past year 9999 (the day after 9999-12-31) as the last of that year, not +010000. */
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');
const FIRST_INSTANT = Date.parse('0000-01-01T00:00:00.000Z');
const iso = (ms: number) => `'${new Date(Math.min(LAST_INSTANT, Math.max(FIRST_INSTANT, ms))).toISOString()}'`;

/** The local day (YYYY-MM-DD) of a UTC date column. */
function localDay(column: string, window: Window): string {
  const cases = window.segments.map(({ until, offset }) => `WHEN ${column} < ${iso(until)} THEN date(${column}, '${offset / 60_000} minutes')`);
  return `CASE ${cases.join(' ')} END`;
}

const within = (column: string, window: Window) => `${column} >= ${iso(window.from)} AND ${column} < ${iso(window.to)}`;

// history.domain, minutes and pages (mirror/event-columns.ts) and its index on them: a year's events are counted from
// the index alone, with no lookup of each one's entry or work and no json read.
const EVENTS = 'history h';
// The title of the one event a moment shows: its work's, else its entry's.
const EVENT_TITLE = `coalesce((SELECT w.title FROM works w WHERE w.id = coalesce(h.work_id, e.work_id)), e.title)`;

/**
 * Dated events by local day and domain: how many, and the minutes, pages and albums they record. With `days: false`
 * by domain only, all on one row per domain (day ''): what the period before needs, at less cost.
 */
export function eventsByDay(db: Database, window: Window, { days = true } = {}): DayRow[] {
  return db
    .prepare(
      `SELECT ${days ? localDay('h.date', window) : "''"} AS day, h.domain, count(*) AS events, sum(h.minutes) AS minutes, sum(h.pages) AS pages,
              sum(h.kind = 'ALBUM_FINISHED') AS albums
       FROM ${EVENTS} WHERE ${within('h.date', window)} GROUP BY 1, 2`,
    )
    .all() as unknown as DayRow[];
}

/** Entries finished (their finish date) by local day and domain. */
export function finishesByDay(db: Database, window: Window): { day: string; domain: unknown; finished: number }[] {
  return db
    .prepare(
      `SELECT ${localDay('finished_at', window)} AS day, domain, count(*) AS finished FROM entries WHERE ${within('finished_at', window)} GROUP BY 1, 2`,
    )
    .all() as unknown as { day: string; domain: unknown; finished: number }[];
}

/** Rewatches, replays, rereads: distinct (entry, cycle > 1) with an event in the window, by domain. */
export function repeatsByDomain(db: Database, window: Window): { domain: unknown; repeats: number }[] {
  return db
    .prepare(
      `SELECT h.domain, count(DISTINCT h.entry_id || '/' || h.cycle) AS repeats
       FROM ${EVENTS} WHERE h.cycle > 1 AND h.entry_id IS NOT NULL AND ${within('h.date', window)} GROUP BY 1`,
    )
    .all() as unknown as { domain: unknown; repeats: number }[];
}

export interface RatingCountRow {
  domain: unknown;
  rating: number;
  entries: number;
}

/**
 * Rated entries active in the window (an event in it, or finished in it), in one pass: how many of each domain have
 * each rating, and the ten best overall (rank) and in each domain (rank_in_domain), ties by title, then id.
 */
export function ratedActive(db: Database, window: Window): { counts: RatingCountRow[]; top: RatedRow[] } {
  const order = 'ORDER BY rating DESC, title_key, id';
  const rows = db
    .prepare(
      `WITH active(id) AS (
         SELECT entry_id FROM history WHERE ${within('date', window)} AND entry_id IS NOT NULL
         UNION SELECT id FROM entries WHERE ${within('finished_at', window)}),
       rated AS MATERIALIZED (
         SELECT id, rating, domain, title_key, work_id, title, json_extract(json, '$.url') AS entry_url
         FROM entries WHERE rating IS NOT NULL AND id IN (SELECT id FROM active))
       SELECT 'count' AS part, domain, rating, count(*) AS entries, NULL AS id, NULL AS title, NULL AS work_url, NULL AS entry_url,
              NULL AS rank, NULL AS rank_in_domain
       FROM rated GROUP BY domain, rating
       UNION ALL
       SELECT 'top', r.domain, r.rating, NULL, r.id, coalesce(w.title, r.title), w.url, r.entry_url, r.rank, r.rank_in_domain
       FROM (SELECT *, row_number() OVER (${order}) AS rank, row_number() OVER (PARTITION BY domain ${order}) AS rank_in_domain FROM rated) r
       LEFT JOIN works w ON w.id = r.work_id WHERE r.rank <= 10 OR r.rank_in_domain <= 10`,
    )
    .all();
  return {
    counts: rows.filter((row) => row.part === 'count') as unknown as RatingCountRow[],
    top: rows.filter((row) => row.part === 'top') as unknown as RatedRow[],
  };
}

/** The first or last dated event of the window, of one domain or of any. */
export function momentOf(db: Database, window: Window, which: 'first' | 'last', domain: string | null): MomentRow | undefined {
  const direction = which === 'first' ? 'ASC' : 'DESC';
  return db
    .prepare(
      `SELECT h.date, ${EVENT_TITLE} AS title, h.kind, h.domain FROM history h LEFT JOIN entries e ON e.id = h.entry_id
       WHERE ${within('h.date', window)} AND (:domain IS NULL OR h.domain = :domain)
       ORDER BY h.date ${direction}, h.id ${direction} LIMIT 1`,
    )
    .get({ domain }) as MomentRow | undefined;
}

/** Events without a date, over the whole mirror, by domain. */
export function undatedByDomain(db: Database): { domain: unknown; events: number }[] {
  return db.prepare(`SELECT h.domain, count(*) AS events FROM ${EVENTS} WHERE h.date IS NULL GROUP BY 1`).all() as unknown as {
    domain: unknown;
    events: number;
  }[];
}
