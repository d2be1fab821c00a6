import type { Database } from './database.js';

/**
 * The mirror's schema, in the dogsheep manner: snake_case tables keyed by the server's ids (stored as TEXT, since an
 * instance may use numbers or UUIDs), a `json` column on every row holding the item exactly as the server sent it
 * (fields docs/api.md does not name are kept, and `json_extract` reaches them), foreign keys, indexes on what people
 * filter by, FTS5 tables named `<table>_fts` with `content="<table>"` (how Datasette and sqlite-utils find them),
 * and a few views. Columns other than id and json are read loosely from the item: NULL when the server spells a
 * field differently. `position` keeps the server's own order (counted from the oldest, so that new items at the top
 * leave the others' positions alone): listings answered offline come out in the order the server gave.
 */

/** Version 1 of the schema (migrations.ts): a later change is a new migration step, never an edit here. */
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS works (
  id TEXT PRIMARY KEY,
  source TEXT,
  source_id TEXT,
  title TEXT,
  original_title TEXT,
  type TEXT,
  domain TEXT,
  year INTEGER,
  url TEXT,
  json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS entries (
  id TEXT PRIMARY KEY,
  work_id TEXT REFERENCES works(id),
  title TEXT,
  domain TEXT,
  status TEXT,
  phase TEXT,
  rating REAL,
  notes TEXT,
  added_at TEXT,
  started_at TEXT,
  finished_at TEXT,
  updated_at TEXT,
  title_key TEXT,
  position INTEGER NOT NULL,
  json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS history (
  id TEXT PRIMARY KEY,
  entry_id TEXT REFERENCES entries(id),
  work_id TEXT REFERENCES works(id),
  kind TEXT,
  date TEXT,
  cycle INTEGER,
  position INTEGER NOT NULL,
  json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS lists (
  id TEXT PRIMARY KEY,
  name TEXT,
  description TEXT,
  item_count INTEGER,
  visibility TEXT,
  owner TEXT,
  created_at TEXT,
  updated_at TEXT,
  position INTEGER NOT NULL,
  json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS list_items (
  id TEXT PRIMARY KEY,
  list_id TEXT NOT NULL REFERENCES lists(id),
  item_index INTEGER NOT NULL,
  type TEXT,
  work_id TEXT REFERENCES works(id),
  season INTEGER,
  episode INTEGER,
  title TEXT,
  note TEXT,
  added_at TEXT,
  json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS reviews (
  id TEXT PRIMARY KEY,
  entry_id TEXT REFERENCES entries(id),
  work_id TEXT REFERENCES works(id),
  rating REAL,
  title TEXT,
  body TEXT,
  created_at TEXT,
  position INTEGER NOT NULL,
  json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS achievements (
  id TEXT PRIMARY KEY,
  name TEXT,
  description TEXT,
  domain TEXT,
  unlocked_at TEXT,
  position INTEGER NOT NULL,
  json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS notifications (
  id TEXT PRIMARY KEY,
  kind TEXT,
  title TEXT,
  message TEXT,
  read INTEGER,
  created_at TEXT,
  position INTEGER NOT NULL,
  json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS calendar (
  id TEXT PRIMARY KEY,
  entry_id TEXT REFERENCES entries(id),
  work_id TEXT REFERENCES works(id),
  season INTEGER,
  episode INTEGER,
  title TEXT,
  airs_at TEXT,
  episodes_behind INTEGER,
  position INTEGER NOT NULL,
  json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS profile (
  id TEXT PRIMARY KEY,
  username TEXT,
  display_name TEXT,
  json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS stats (
  id TEXT PRIMARY KEY,
  json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS sync_runs (
  id INTEGER PRIMARY KEY,
  started_at TEXT NOT NULL,
  finished_at TEXT NOT NULL,
  source TEXT NOT NULL,
  requests INTEGER NOT NULL,
  rows_added INTEGER NOT NULL,
  rows_changed INTEGER NOT NULL,
  rows_removed INTEGER NOT NULL,
  base_url TEXT,
  account TEXT,
  lk_version TEXT
);
CREATE TABLE IF NOT EXISTS mirror_meta (
  key TEXT PRIMARY KEY,
  value TEXT
);

CREATE INDEX IF NOT EXISTS entries_work_id ON entries(work_id);
CREATE INDEX IF NOT EXISTS entries_phase ON entries(phase, domain);
CREATE INDEX IF NOT EXISTS entries_domain ON entries(domain);
CREATE INDEX IF NOT EXISTS entries_status ON entries(status);
CREATE INDEX IF NOT EXISTS entries_rating ON entries(rating);
CREATE INDEX IF NOT EXISTS entries_position ON entries(position);
CREATE INDEX IF NOT EXISTS history_entry_id ON history(entry_id);
CREATE INDEX IF NOT EXISTS history_work_id ON history(work_id);
CREATE INDEX IF NOT EXISTS history_date ON history(date);
CREATE INDEX IF NOT EXISTS history_kind ON history(kind);
CREATE INDEX IF NOT EXISTS history_position ON history(position);
CREATE INDEX IF NOT EXISTS list_items_list_id ON list_items(list_id, item_index);
CREATE INDEX IF NOT EXISTS list_items_work_id ON list_items(work_id);
CREATE INDEX IF NOT EXISTS reviews_entry_id ON reviews(entry_id);
CREATE INDEX IF NOT EXISTS reviews_work_id ON reviews(work_id);
CREATE INDEX IF NOT EXISTS calendar_airs_at ON calendar(airs_at);
CREATE INDEX IF NOT EXISTS notifications_created_at ON notifications(created_at);
CREATE INDEX IF NOT EXISTS works_domain ON works(domain);

CREATE VIRTUAL TABLE IF NOT EXISTS works_fts USING fts5(title, original_title, content="works", tokenize="unicode61 remove_diacritics 2", prefix='2 3');
CREATE VIRTUAL TABLE IF NOT EXISTS entries_fts USING fts5(title, notes, content="entries", tokenize="unicode61 remove_diacritics 2", prefix='2 3');
CREATE VIRTUAL TABLE IF NOT EXISTS reviews_fts USING fts5(title, body, content="reviews", tokenize="unicode61 remove_diacritics 2", prefix='2 3');
CREATE VIRTUAL TABLE IF NOT EXISTS lists_fts USING fts5(name, description, content="lists", tokenize="unicode61 remove_diacritics 2", prefix='2 3');

CREATE VIEW IF NOT EXISTS library AS
  SELECT e.id, w.title, w.type, e.domain, e.status, e.phase, e.rating, e.notes, e.added_at, e.started_at, e.finished_at,
         w.source, w.source_id, w.year, e.work_id
  FROM entries e LEFT JOIN works w ON w.id = e.work_id;
CREATE VIEW IF NOT EXISTS history_with_titles AS
  SELECT h.id, h.date, h.kind, h.cycle, w.title, e.domain, h.entry_id, h.work_id
  FROM history h LEFT JOIN entries e ON e.id = h.entry_id LEFT JOIN works w ON w.id = coalesce(h.work_id, e.work_id);
CREATE VIEW IF NOT EXISTS reviews_with_titles AS
  SELECT r.id, w.title AS work_title, r.rating, r.title, r.body, r.created_at, r.entry_id, r.work_id
  FROM reviews r LEFT JOIN works w ON w.id = r.work_id;
CREATE VIEW IF NOT EXISTS list_items_with_titles AS
  SELECT l.name AS list, i.item_index, i.type, w.title AS work_title, i.season, i.episode, i.title, i.note, i.added_at, i.list_id, i.work_id
  FROM list_items i JOIN lists l ON l.id = i.list_id LEFT JOIN works w ON w.id = i.work_id;
CREATE VIEW IF NOT EXISTS time_per_year AS
  SELECT substr(h.date, 1, 4) AS year, e.domain, count(*) AS events, sum(json_extract(h.json, '$.minutes')) AS minutes,
         sum(json_extract(h.json, '$.pages')) AS pages
  FROM history h LEFT JOIN entries e ON e.id = h.entry_id
  WHERE h.date IS NOT NULL GROUP BY 1, 2;
`;

/**
 * The tables of the server's items, in the order they were made: what a sync brings to what the server shows (any
 * other table in the file, one of the user's own, say, is left alone), each with the full-text table kept from it.
 */
export interface ItemTableSpec {
  /** The FTS5 table kept from it, rebuilt when its rows change. */
  search?: string;
}

export const ITEM_TABLES = {
  works: { search: 'works_fts' },
  entries: { search: 'entries_fts' },
  history: {},
  lists: { search: 'lists_fts' },
  list_items: {},
  reviews: { search: 'reviews_fts' },
  achievements: {},
  notifications: {},
  calendar: {},
  profile: {},
  stats: {},
} as const satisfies Record<string, ItemTableSpec>;
export type ItemTable = keyof typeof ITEM_TABLES;

/**
 * The columns of an item table but `json`, as the mirror has them after every migration step: read from the schema
 * itself, so that no list of them is kept anywhere else (rows.ts says what each is read from).
 */
export function columnsOf(db: Database, table: ItemTable): string[] {
  return db
    .prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid')
    .all(table)
    .map((column) => column.name as string)
    .filter((name) => name !== 'json');
}
