import { EPISODE_PATHS, SEASON_PATHS } from '../items/calendar.js';
import type { Database } from './open.js';

/**
 * What lk publish's pages read from the mirror (src/readings/site.ts runs them for a public host, so these tables are
 * the public projection's): the columns lk sync normalised, never a note. Each read is in the server's order.
 */

/** The account's names, as its profile gives them (both may be missing). */
export function profileNames(db: Database): { username: string | null; displayName: string | null; json: string | null } {
  const row = db.prepare('SELECT username, display_name, json FROM profile LIMIT 1').get();
  const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : null);
  return { username: text(row?.username), displayName: text(row?.display_name), json: text(row?.json) };
}

export interface DomainCount {
  domain: string | null;
  phase: string | null;
  count: number;
}

/** How many entries each domain holds in each phase. */
export function entryCounts(db: Database): DomainCount[] {
  return db
    .prepare(
      `SELECT coalesce(e.domain, w.domain) AS domain, e.phase AS phase, count(*) AS n
       FROM entries e LEFT JOIN works w ON w.id = e.work_id GROUP BY 1, 2 ORDER BY 1, 2`,
    )
    .all()
    .map((row) => ({ domain: (row.domain as string | null) ?? null, phase: (row.phase as string | null) ?? null, count: Number(row.n) }));
}

/**
 * SQL for items/values.ts `firstCount(json, paths)`: the first of the spellings that holds a whole number (a number,
 * or digits as text), read in SQLite so that a diary of hundreds of thousands of events parses no event's JSON.
 */
function firstCountSql(column: string, paths: readonly string[]): string {
  const one = (path: string) => {
    const at = `'$.${path}'`;
    return `CASE WHEN json_type(${column}, ${at}) IN ('integer', 'real') THEN json_extract(${column}, ${at})
      WHEN json_type(${column}, ${at}) = 'text' AND json_extract(${column}, ${at}) GLOB '[0-9]*'
        AND NOT json_extract(${column}, ${at}) GLOB '*[^0-9]*' AND length(json_extract(${column}, ${at})) <= 9
      THEN CAST(json_extract(${column}, ${at}) AS INTEGER) END`;
  };
  return `coalesce(${paths.map(one).join(', ')})`;
}

/** A dated event of the history with its work's columns, for the diary. */
export interface DiaryRow {
  date: string;
  /** Its season and episode (items/calendar.ts seasonOf, episodeOf), null where it names none. */
  season: number | null;
  episode: number | null;
  kind: string | null;
  title: string | null;
  domain: string | null;
  type: string | null;
  year: number | null;
  url: string | null;
}

/** How many dated events the history holds. */
export function datedEventCount(db: Database): number {
  return Number(db.prepare('SELECT count(*) AS n FROM history WHERE date IS NOT NULL').get()!.n);
}

/**
 * Dated events, newest first (the server's order), from `offset` on (`limit` of them; -1 for all): read as they are
 * iterated, so a whole diary goes by in one statement.
 */
export function diaryRows(db: Database, offset: number, limit: number): IterableIterator<DiaryRow> {
  return db
    .prepare(
      `SELECT h.date, ${firstCountSql('h.json', SEASON_PATHS)} AS season, ${firstCountSql('h.json', EPISODE_PATHS)} AS episode, h.kind, coalesce(w.title, e.title) AS title, coalesce(e.domain, w.domain) AS domain,
              w.type, w.year, coalesce(w.url, json_extract(e.json, '$.url')) AS url
       FROM history h LEFT JOIN entries e ON e.id = h.entry_id LEFT JOIN works w ON w.id = coalesce(h.work_id, e.work_id)
       WHERE h.date IS NOT NULL ORDER BY h.position LIMIT :limit OFFSET :offset`,
    )
    .iterate({ limit, offset }) as unknown as IterableIterator<DiaryRow>;
}

export interface ListRow {
  id: string;
  json: string;
}

/** The lists, in the server's order. */
export function listRows(db: Database): ListRow[] {
  return db.prepare('SELECT id, json FROM lists ORDER BY position').all() as unknown as ListRow[];
}

export interface ListItemRow {
  json: string;
  title: string | null;
  type: string | null;
  year: number | null;
  url: string | null;
  season: number | null;
  episode: number | null;
}

/** A list's items in its order, each with its work's columns. */
export function listItemRows(db: Database, listId: string): ListItemRow[] {
  return db
    .prepare(
      `SELECT li.json, coalesce(w.title, li.title) AS title, coalesce(w.type, li.type) AS type, w.year, w.url, li.season, li.episode
       FROM list_items li LEFT JOIN works w ON w.id = li.work_id WHERE li.list_id = ? ORDER BY li.item_index`,
    )
    .all(listId) as unknown as ListItemRow[];
}
