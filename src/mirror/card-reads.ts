import type { Database } from './open.js';

/**
 * The reads of lk card (src/readings/cards.ts) the other readings do not make: entries by domain, the ratings, and
 * dated activity by local day. A public host reads them through the public projection, like every reading.
 */

/** How many entries each domain holds (a domain the server did not send: null), by domain. */
export function entriesByDomain(db: Database): { domain: string | null; entries: number }[] {
  return db.prepare('SELECT domain, count(*) AS entries FROM entries GROUP BY domain ORDER BY domain').all() as unknown as {
    domain: string | null;
    entries: number;
  }[];
}

/** The rated entries: how many, and their average rating (null when none is rated). */
export function ratingSummary(db: Database): { rated: number; average: number | null } {
  const row = db.prepare('SELECT count(rating) AS rated, avg(rating) AS average FROM entries WHERE rating IS NOT NULL').get();
  return { rated: Number(row?.rated ?? 0), average: typeof row?.average === 'number' ? row.average : null };
}

/** A span of UTC instants [from, to) and the zone's offsets over it (report/time-zone.ts TimeZone.offsetSegments). */
export interface LocalSpan {
  from: number;
  to: number;
  segments: { until: number; offset: number }[];
}

const iso = (ms: number) => `'${new Date(ms).toISOString()}'`;

/** Dated history events by local day (YYYY-MM-DD) in the span: only the days that have some, oldest first. */
export function eventsPerLocalDay(db: Database, span: LocalSpan): { day: string; events: number }[] {
  // The local day of each UTC date, through the zone's offsets written into the query as a CASE (as lk report does).
  const cases = span.segments.map(({ until, offset }) => `WHEN date < ${iso(until)} THEN date(date, '${offset / 60_000} minutes')`);
  return db
    .prepare(
      `SELECT CASE ${cases.join(' ')} END AS day, count(*) AS events FROM history
       WHERE date >= ${iso(span.from)} AND date < ${iso(span.to)} GROUP BY 1 ORDER BY 1`,
    )
    .all() as unknown as { day: string; events: number }[];
}
