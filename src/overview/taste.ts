import type { Database } from '../mirror/database.js';
import { DOMAINS, PHASE_OF_STATUS, type Phase } from '../vocabulary.js';

/**
 * A taste profile of the account, for an assistant to recommend from (lk mcp's recommend prompt and tool): the works
 * rated best, those finished last and those dropped, each with its rating and domain, and how the ratings spread.
 * Bounded whatever the library's size (a few KB at 100,000 entries): each list at most TASTE_LIMITS long, the spread
 * in whole points. Never a note, never a review's text: only titles, domains, types, years, ratings and dates.
 */

export const TASTE_LIMITS = { topRated: 20, recentlyFinished: 15, dropped: 10 } as const;

export interface TasteWork {
  title: string | null;
  domain: string | null;
  type: string | null;
  year: number | null;
  rating: number | null;
  /** When it was finished (recentlyFinished) or last changed (dropped), ISO 8601. */
  at?: string | null;
}

export interface TasteProfile {
  /** The domain asked for, or null for every domain. */
  domain: string | null;
  /** Entries in the library (of the domain), and how many of them are done, dropped and rated. */
  entries: { total: number; done: number; dropped: number; rated: number };
  /** The ratings' spread: average, lowest, median, highest, and how many entries have each rating (in whole points). */
  ratings: {
    average: number | null;
    lowest: number | null;
    median: number | null;
    highest: number | null;
    counts: { rating: number; entries: number }[];
  };
  topRated: TasteWork[];
  recentlyFinished: TasteWork[];
  dropped: TasteWork[];
}

/** The statuses of a phase in every domain, quoted for SQL (an instance that sends no phase is read by its status). */
const statusesOf = (phase: Phase) =>
  [...new Set(DOMAINS.flatMap((domain) => Object.keys(PHASE_OF_STATUS[domain]).filter((status) => PHASE_OF_STATUS[domain][status] === phase)))]
    .map((status) => `'${status}'`)
    .join(', ');
const inPhase = (phase: Phase) => `(e.phase = '${phase}' OR (e.phase IS NULL AND e.status IN (${statusesOf(phase)})))`;

const WORK = `COALESCE(e.title, w.title) AS title, COALESCE(e.domain, w.domain) AS domain, w.type AS type, w.year AS year, e.rating AS rating`;
const FROM = 'FROM entries e LEFT JOIN works w ON w.id = e.work_id';

export function tasteProfile(db: Database, { domain }: { domain?: string | undefined }): TasteProfile {
  const scope = domain === undefined ? '1 = 1' : 'e.domain = :domain';
  const params = domain === undefined ? {} : { domain };
  const works = (where: string, order: string, limit: number, at?: string): TasteWork[] =>
    db
      .prepare(`SELECT ${WORK}${at ? `, ${at} AS at` : ''} ${FROM} WHERE ${scope} AND ${where} ORDER BY ${order} LIMIT ${limit}`)
      .all(params)
      .map((row) => ({
        title: text(row.title),
        domain: text(row.domain),
        type: text(row.type),
        year: number(row.year),
        rating: number(row.rating),
        ...(at ? { at: text(row.at) } : {}),
      }));
  const counts = db
    .prepare(
      `SELECT count(*) AS total, count(e.rating) AS rated, avg(e.rating) AS average, min(e.rating) AS lowest, max(e.rating) AS highest,
              sum(${inPhase('DONE')}) AS done, sum(${inPhase('DROPPED')}) AS dropped ${FROM} WHERE ${scope}`,
    )
    .get(params)!;
  const rated = Number(counts.rated);
  // The middle rating (the lower of the two middle ones for an even count), by the rating index.
  const median =
    rated === 0
      ? null
      : number(
          db
            .prepare(`SELECT e.rating AS rating ${FROM} WHERE ${scope} AND e.rating IS NOT NULL ORDER BY e.rating LIMIT 1 OFFSET ${(rated - 1) >> 1}`)
            .get(params)?.rating,
        );
  const spread = db
    .prepare(
      `SELECT CAST(round(e.rating) AS INTEGER) AS rating, count(*) AS entries ${FROM} WHERE ${scope} AND e.rating IS NOT NULL GROUP BY 1 ORDER BY 1 DESC LIMIT 101`,
    )
    .all(params)
    .map((row) => ({ rating: Number(row.rating), entries: Number(row.entries) }));
  const average = number(counts.average);
  return {
    domain: domain ?? null,
    entries: { total: Number(counts.total), done: Number(counts.done ?? 0), dropped: Number(counts.dropped ?? 0), rated },
    ratings: {
      average: average === null ? null : Math.round(average * 100) / 100,
      lowest: number(counts.lowest),
      median,
      highest: number(counts.highest),
      counts: spread,
    },
    topRated: works('e.rating IS NOT NULL', 'e.rating DESC, e.finished_at DESC, e.position', TASTE_LIMITS.topRated),
    recentlyFinished: works(
      `${inPhase('DONE')} AND e.finished_at IS NOT NULL`,
      'e.finished_at DESC, e.position',
      TASTE_LIMITS.recentlyFinished,
      'e.finished_at',
    ),
    dropped: works(
      inPhase('DROPPED'),
      'COALESCE(e.updated_at, e.added_at) DESC, e.position',
      TASTE_LIMITS.dropped,
      'COALESCE(e.updated_at, e.added_at)',
    ),
  };
}

const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
const number = (value: unknown) => (typeof value === 'number' || typeof value === 'bigint' ? Number(value) : null);
