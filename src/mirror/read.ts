import type { Database } from './open.js';
import { ENTRY_CHANGES_VERSION, hasVersion } from './migrations.js';

/**
 * Queries on the mirror: full-text search, the offline answers of the listing commands, read-only SQL. Each gives
 * the items exactly as the server sent them (the json column), in the order the server gives them online.
 */

export interface MirrorAge {
  snapshotAt: number | undefined;
  syncedAt: number | undefined;
}

export function mirrorAge(db: Database): MirrorAge {
  const value = (key: string) => {
    const row = db.prepare('SELECT value FROM mirror_meta WHERE key = ?').get(key);
    return typeof row?.value === 'string' ? Date.parse(row.value) : undefined;
  };
  return { snapshotAt: value('snapshot_at'), syncedAt: value('synced_at') };
}

/**
 * The moment a document made from the mirror says it was made (a calendar's DTSTAMP fallback, a report's
 * "generated", lk serve's /status.json): when the mirror's data last changed — the end of the last sync that added,
 * changed or removed a row, not of the last sync — so that the same data give the same bytes and lk serve's ETags
 * hold across syncs that changed nothing; the last sync for a mirror that kept no runs, the clock for one that says
 * nothing.
 */
export function mirrorStamp(db: Database, now: number): number {
  return mirrorChangedAt(db) ?? now;
}

/** When the mirror's data last changed (see mirrorStamp); undefined for a mirror that does not say. */
export function mirrorChangedAt(db: Database): number | undefined {
  const row = db.prepare('SELECT finished_at FROM sync_runs WHERE rows_added + rows_changed + rows_removed > 0 ORDER BY id DESC LIMIT 1').get();
  const changed = typeof row?.finished_at === 'string' ? Date.parse(row.finished_at) : Number.NaN;
  return Number.isNaN(changed) ? mirrorAge(db).syncedAt : changed;
}

/**
 * When each upcoming episode last changed, as the data say (a calendar's DTSTAMP, RFC 5545 §3.8.7.2 for a calendar
 * without METHOD): the item's own update time when it has one, else its entry's (watching an episode changes how
 * far behind it is), else when the entry's row last changed in the mirror; undefined when none says.
 */
export function calendarChanges(db: Database, items: readonly unknown[]): (item: unknown) => number | undefined {
  // An entry that carries no update time (docs/api.md shows none): when its row last changed in the mirror, so that
  // its events keep their stamp until it does, whatever else a sync changed (issue 57).
  const inMirror = hasVersion(db, ENTRY_CHANGES_VERSION) ? ', changed_at' : '';
  const entry = db.prepare(
    `SELECT coalesce(json_extract(json, '$.dates.updated'), json_extract(json, '$.updatedAt'), json_extract(json, '$.updated'), updated_at${inMirror}) AS at FROM entries WHERE id = ?`,
  );
  const stamps = new Map<unknown, number>();
  for (const item of items) {
    const fields = item as { updatedAt?: unknown; updated?: unknown; entryId?: unknown };
    const own = fields.updatedAt ?? fields.updated;
    const at = typeof own === 'string' ? own : typeof fields.entryId === 'string' ? entry.get(fields.entryId)?.at : undefined;
    const time = typeof at === 'string' ? Date.parse(at) : Number.NaN;
    if (!Number.isNaN(time)) stamps.set(item, time);
  }
  return (item) => stamps.get(item);
}

/** TEXT → FTS5 query: each word a quoted prefix ("amel" finds Amélie), all words required. */
export function ftsQuery(textQuery: string): string | undefined {
  const words = textQuery.split(/[^\p{L}\p{N}\p{M}_]+/u).filter(Boolean);
  if (words.length === 0) return undefined;
  return words.map((word) => `"${word.replace(/"/g, '""')}"*`).join(' ');
}

/** Which rows of a listing to read: a page, or everything (limit -1). */
export interface Window {
  offset: number;
  limit: number;
}

/**
 * A window of a listing: how many items the whole listing holds, and the window's items, read from one statement as
 * they are asked for (a listing read to its end is one pass, never a statement per page).
 */
export interface Listing {
  items: Iterable<unknown>;
  total: number;
}

const EVERYTHING: Window = { offset: 0, limit: -1 };

function* parsed(rows: Iterable<Record<string, unknown>>): Generator<unknown> {
  for (const row of rows) yield JSON.parse(row.json as string) as unknown;
}

export interface SearchFilters {
  domain?: string | undefined;
  phase?: string | undefined;
}

/**
 * Library entries whose title (entries_fts keeps each entry's work title), original title, notes or review match, best first (bm25; an entry found several
 * ways ranks by its best match), then in library order.
 */
export function searchEntries(db: Database, textQuery: string, filters: SearchFilters, window: Window = EVERYTHING): Listing {
  const match = ftsQuery(textQuery);
  if (match === undefined) return { items: [], total: 0 };
  // Found entries are few beside the library: gathered at once, with their count. They are ranked by rowid alone and
  // only the window's are read whole: carrying each found entry's JSON through the grouping and the sort made a
  // search for a common word at 100,000 entries (3,335 found) take 14 ms in SQLite instead of 10.
  const rows = db
    .prepare(
      `WITH hits(entry_rowid, rank) AS (
         SELECT rowid, bm25(entries_fts) FROM entries_fts WHERE entries_fts MATCH :q
         UNION ALL
         SELECT e.rowid, bm25(works_fts) FROM works_fts JOIN works w ON w.rowid = works_fts.rowid JOIN entries e ON e.work_id = w.id
           WHERE works_fts MATCH :original
         UNION ALL
         SELECT e.rowid, bm25(reviews_fts) FROM reviews_fts JOIN reviews r ON r.rowid = reviews_fts.rowid
           JOIN entries e ON e.id = r.entry_id OR (r.entry_id IS NULL AND e.work_id = r.work_id)
           WHERE reviews_fts MATCH :q
       ),
       found(entry_rowid, best, position) AS (
         SELECT e.rowid, min(hits.rank), e.position FROM hits JOIN entries e ON e.rowid = hits.entry_rowid
         WHERE (:domain IS NULL OR e.domain = :domain) AND (:phase IS NULL OR e.phase = :phase)
         GROUP BY e.rowid
       ),
       shown AS (
         SELECT entry_rowid, best, position, count(*) OVER () AS total FROM found ORDER BY best, position LIMIT :limit OFFSET :offset
       )
       SELECT e.json, shown.total FROM shown JOIN entries e ON e.rowid = shown.entry_rowid ORDER BY shown.best, shown.position`,
    )
    .all({ q: match, original: `original_title : (${match})`, domain: filters.domain ?? null, phase: filters.phase ?? null, ...window });
  return { items: [...parsed(rows)], total: Number(rows[0]?.total ?? 0) };
}

export interface LibraryFilters extends SearchFilters {
  sort?: string | undefined;
  order?: string | undefined;
  /** The entry's own status (WATCHING, PLAN_TO_READ…), exactly. */
  status?: string | undefined;
  minRating?: number | undefined;
  maxRating?: number | undefined;
  /** ISO dates or instants, inclusive: when the entry was added, when it was finished. */
  addedFrom?: string | undefined;
  addedTo?: string | undefined;
  finishedFrom?: string | undefined;
  finishedTo?: string | undefined;
}

/**
 * GET /v1/library answered from the mirror. added is the server's own order as synced; title A to Z by a case- and
 * accent-free key; rating best first; finished newest first; ties by id. asc reverses the natural order exactly,
 * except that entries with no rating (no finish date) stay last in id order, as the reference server does.
 */
export function libraryOrderSql(sort = 'added', order = 'desc'): string {
  const asc = order === 'asc';
  switch (sort) {
    case 'title':
      return asc ? 'title_key DESC, id DESC' : 'title_key ASC, id ASC';
    case 'rating':
      return asc ? '(rating IS NULL), CASE WHEN rating IS NULL THEN id END ASC, rating ASC, id DESC' : '(rating IS NULL), rating DESC, id ASC';
    case 'finished':
      return asc
        ? '(finished_at IS NULL), CASE WHEN finished_at IS NULL THEN id END ASC, finished_at ASC, id DESC'
        : '(finished_at IS NULL), finished_at DESC, id ASC';
    default:
      return asc ? 'position DESC' : 'position ASC';
  }
}

export function libraryItems(db: Database, filters: LibraryFilters, window: Window = EVERYTHING): Listing {
  // Dates are ISO 8601 text (docs/api.md, The service): compared as text, a bare date YYYY-MM-DD as the start of that day, and an
  // upper bound given as a date takes its whole day.
  const upTo = (date: string | undefined) => (date === undefined ? undefined : /^\d{4}-\d{2}-\d{2}$/.test(date) ? `${date}T23:59:59.999Z` : date);
  const conditions: [string, string | number | undefined][] = [
    ['domain = :domain', filters.domain],
    ['phase = :phase', filters.phase],
    ['status = :status', filters.status],
    ['rating >= :minRating', filters.minRating],
    ['rating <= :maxRating', filters.maxRating],
    ['added_at >= :addedFrom', filters.addedFrom],
    ['added_at <= :addedTo', upTo(filters.addedTo)],
    ['finished_at >= :finishedFrom', filters.finishedFrom],
    ['finished_at <= :finishedTo', upTo(filters.finishedTo)],
  ];
  // Only the filters given, so that SQLite can use an index for them (and count the whole library from one).
  const given = conditions.filter(([, value]) => value !== undefined);
  const where = given.length === 0 ? '' : `WHERE ${given.map(([condition]) => condition).join(' AND ')}`;
  const params = Object.fromEntries(given.map(([condition, value]) => [condition.slice(condition.indexOf(':') + 1), value!]));
  const total = Number(db.prepare(`SELECT count(*) AS n FROM entries ${where}`).get(params)!.n);
  const rows = db
    .prepare(`SELECT json FROM entries ${where} ORDER BY ${libraryOrderSql(filters.sort, filters.order)} LIMIT :limit OFFSET :offset`)
    .iterate({ ...params, ...window });
  return { items: parsed(rows), total };
}

/**
 * GET /v1/history from the mirror: dated events within [from, to] (ms, inclusive), newest first in the server's
 * order. Events the export sent with a work id only get their work back, as GET /v1/history shows it.
 */
export function historyItems(
  db: Database,
  filters: { domain?: string | undefined; from?: number | undefined; to?: number | undefined },
  window: Window = EVERYTHING,
): Listing {
  // Dates are ISO 8601 in UTC with milliseconds (docs/api.md, The service): as text they sort as time does.
  const bound = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
  const params = { ...(filters.domain === undefined ? {} : { domain: filters.domain }), from: bound(filters.from), to: bound(filters.to) };
  // The event's entry is looked up only where it is needed: for the domain, or for the work of an event without one.
  const joins =
    filters.domain === undefined
      ? 'LEFT JOIN works w ON w.id = coalesce(h.work_id, (SELECT e.work_id FROM entries e WHERE e.id = h.entry_id))'
      : 'LEFT JOIN entries e ON e.id = h.entry_id LEFT JOIN works w ON w.id = coalesce(h.work_id, e.work_id)';
  const where = `WHERE h.date IS NOT NULL AND (:from IS NULL OR h.date >= :from) AND (:to IS NULL OR h.date <= :to)
    ${filters.domain === undefined ? '' : 'AND coalesce(e.domain, w.domain) = :domain'}`;
  // A count of the whole history reads one index, without the joins.
  const total = Number(db.prepare(`SELECT count(*) AS n FROM history h ${filters.domain === undefined ? '' : joins} ${where}`).get(params)!.n);
  const rows = db
    .prepare(`SELECT h.json, w.json AS work FROM history h ${joins} ${where} ORDER BY h.position LIMIT :limit OFFSET :offset`)
    .iterate({ ...params, ...window });
  return { items: withWorks(rows), total };
}

/** Events the export sent with a work id only get their work back, as GET /v1/history shows it. */
function* withWorks(rows: Iterable<Record<string, unknown>>): Generator<unknown> {
  for (const row of rows) {
    const event = JSON.parse(row.json as string) as Record<string, unknown>;
    yield event.work === undefined && typeof row.work === 'string' ? withWork(event, JSON.parse(row.work) as unknown) : event;
  }
}

/**
 * The export's event names its work by `workId` where the pages give the whole `work`, in that same place: the work
 * takes the place of an id that is its own (redundant beside it), so that the event reads field for field and in the
 * order GET /v1/history gives. Any other field stays, as it came.
 */
function withWork(event: Record<string, unknown>, work: unknown): Record<string, unknown> {
  if (event.workId === undefined || event.workId !== (work as { id?: unknown } | null)?.id) return { ...event, work };
  return Object.fromEntries(Object.entries(event).map(([key, value]) => (key === 'workId' ? ['work', work] : [key, value])));
}

/** A table's items in the server's order; calendar and reviews filtered by domain. */
export function tableItems(
  db: Database,
  table: 'lists' | 'reviews' | 'notifications' | 'calendar' | 'achievements',
  filters: { domain?: string | undefined } = {},
): unknown[] {
  let sql = `SELECT t.json FROM ${table} t ORDER BY t.position`;
  if ((table === 'reviews' || table === 'calendar') && filters.domain !== undefined) {
    sql = `SELECT t.json FROM ${table} t LEFT JOIN entries e ON e.id = t.entry_id LEFT JOIN works w ON w.id = coalesce(t.work_id, e.work_id)
           WHERE coalesce(w.domain, e.domain) = :domain ORDER BY t.position`;
    return db
      .prepare(sql)
      .all({ domain: filters.domain })
      .map((row) => JSON.parse(row.json as string) as unknown);
  }
  return db
    .prepare(sql)
    .all()
    .map((row) => JSON.parse(row.json as string) as unknown);
}

/** One library entry by its id with its history (undated events last), or undefined. */
export function entryWithHistory(db: Database, id: string): { entry: unknown; history: unknown[] } | undefined {
  const row = db.prepare('SELECT json FROM entries WHERE id = ?').get(id);
  if (!row) return undefined;
  const history = db
    .prepare('SELECT json FROM history WHERE entry_id = ? ORDER BY (date IS NULL), position')
    .all(id)
    .map((event) => JSON.parse(event.json as string) as unknown);
  return { entry: JSON.parse(row.json as string) as unknown, history };
}

/** The calendar from `now`'s day on, as online (it starts today): episodes that aired since the sync are left out. */
export function upcomingCalendar(db: Database, filters: { domain?: string | undefined }, now: number): unknown[] {
  const today = Math.floor(now / 86_400_000) * 86_400_000;
  return tableItems(db, 'calendar', filters).filter((item) => {
    const at = Date.parse(String((item as { airsAt?: unknown }).airsAt ?? ''));
    return Number.isNaN(at) || at >= today;
  });
}

/** The language of the mirror's titles: the account's (docs/api.md, Endpoints), in which the export and the pages were sent. */
export function titleLanguage(db: Database): string | undefined {
  const row = db.prepare("SELECT json_extract(json, '$.language') AS lang FROM profile LIMIT 1").get();
  return typeof row?.lang === 'string' ? row.lang.toLowerCase() : undefined;
}

export function statsSnapshot(db: Database): unknown {
  const row = db.prepare("SELECT json FROM stats WHERE id = 'all'").get();
  return row ? (JSON.parse(row.json as string) as unknown) : undefined;
}

/** The schema as SQLite holds it: tables, indexes, FTS tables, views. */
export function schemaText(db: Database): string {
  const rows = db
    .prepare(`SELECT sql FROM sqlite_master WHERE ${LISTED} ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 ELSE 2 END, rowid`)
    .all();
  return `${rows.map((row) => `${row.sql as string};`).join('\n')}\n`;
}

/** What lk sql --schema lists: the full-text tables' own shadow tables and SQLite's are left out. */
const LISTED = "sql IS NOT NULL AND name NOT LIKE '%_fts_%' AND name NOT LIKE 'sqlite_%'";

export interface SchemaTable {
  name: string;
  kind: 'table' | 'virtual table' | 'view';
  columns: { name: string; type: string }[];
}

/** The tables and views lk sql --schema lists (the full-text ones too), each with its columns, in the same order. */
export function schemaTables(db: Database): SchemaTable[] {
  const rows = db
    .prepare(`SELECT name, type, sql FROM sqlite_master WHERE ${LISTED} AND type IN ('table', 'view') ORDER BY type = 'view', rowid`)
    .all();
  return rows.map((row) => {
    const name = row.name as string;
    const columns = db
      .prepare('SELECT name, type FROM pragma_table_info(?)')
      .all(name)
      .map((column) => ({ name: column.name as string, type: column.type as string }));
    const kind = row.type === 'view' ? 'view' : /^CREATE VIRTUAL/i.test(row.sql as string) ? 'virtual table' : 'table';
    return { name, kind, columns };
  });
}
