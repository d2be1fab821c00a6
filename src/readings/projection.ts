import { AUDIENCE_WORDS, PRIVATE_FLAGS, PUBLIC_FLAGS, PUBLIC_WORD } from '../items/audience.js';
import { REVIEW_BODY_PATHS, REVIEW_TITLE_PATHS, SPOILER_FLAGS } from '../items/review.js';
import { NOTE_MEMBERS } from '../items/entry.js';
import type { Database } from '../mirror/open.js';

/**
 * The public projection of the mirror: what a public surface may show anyone who reaches it (lk feed --public, every
 * address of lk serve — a calendar URL shared with its token, a dashboard on the LAN). This is the one place that
 * decides it: the engine (./engine.ts) opens a public reading's connection through it (./mirror-handle.ts), giving it
 * TEMP views named like the tables, and SQLite looks a name up in `temp` before `main`, so every query of every
 * reading reads the projection without knowing it.
 *
 * Left out: an entry's notes, a list item's note, the text (title and body) of a review that is private or marked as
 * a spoiler (the review itself stays: its rating, that it exists), and every list not marked public, with its items.
 * Which items are private is items/' decision (audience.ts, review.ts, list.ts): the SQL below is made from their
 * spellings. Notifications stay: /status.json shows them, as a dashboard would.
 */

/** JSON members that hold notes, removed from the item a table keeps. */
const NOTE_PATHS = NOTE_MEMBERS.map((name) => `'$."${name}"'`);

/** A member of the row's json, as SQL. Compared with IS (never =): a missing member is false, not NULL, under NOT. */
const member = (name: string) => `json_extract(json, '$."${name}"')`;
const anyOf = (conditions: string[]) => `(${conditions.join(' OR ')})`;

/** SQL for items/audience.ts `audienceOf(json) === 'not public'`, from the same spellings. */
const NOT_PUBLIC = anyOf([
  ...PRIVATE_FLAGS.map((name) => `${member(name)} IS 1`),
  ...PUBLIC_FLAGS.map((name) => `${member(name)} IS 0`),
  ...AUDIENCE_WORDS.map((name) => `lower(coalesce(${member(name)}, '${PUBLIC_WORD}')) <> '${PUBLIC_WORD}'`),
]);
/** SQL for `audienceOf(json) === 'public'`: marked public by one spelling, not public by none. */
const PUBLIC = `(${anyOf([
  ...PUBLIC_FLAGS.map((name) => `${member(name)} IS 1`),
  ...AUDIENCE_WORDS.map((name) => `lower(${member(name)}) IS '${PUBLIC_WORD}'`),
])} AND NOT ${NOT_PUBLIC})`;

/** A review no one else may read in full (items/review.ts `reviewWithheld`): not public, or a spoiler. */
const WITHHELD_REVIEW = anyOf([NOT_PUBLIC, ...SPOILER_FLAGS.map((name) => `${member(name)} IS 1`)]);
/** JSON members of a review's text, in every spelling items/review.ts reads. */
const REVIEW_TEXT_PATHS = [...REVIEW_TITLE_PATHS, ...REVIEW_BODY_PATHS].map((name) => `'$."${name}"'`);

/** Per table: the SQL standing for a column (any column not named is read as it is), and the rows kept. */
const PROJECTED: Record<string, { columns: Record<string, string>; where?: string }> = {
  entries: { columns: { notes: 'NULL', json: `json_remove(json, ${NOTE_PATHS.join(', ')})` } },
  // Only the items of public lists (items/list.ts `listIsPublic`), and none of their notes.
  list_items: {
    columns: { note: 'NULL', json: `json_remove(json, ${NOTE_PATHS.join(', ')})` },
    where: `list_id IN (SELECT id FROM main.lists WHERE ${PUBLIC})`,
  },
  lists: { columns: {}, where: PUBLIC },
  reviews: {
    columns: {
      title: `CASE WHEN ${WITHHELD_REVIEW} THEN NULL ELSE title END`,
      body: `CASE WHEN ${WITHHELD_REVIEW} THEN NULL ELSE body END`,
      json: `CASE WHEN ${WITHHELD_REVIEW} THEN json_remove(json, ${REVIEW_TEXT_PATHS.join(', ')}) ELSE json END`,
    },
  },
};

/**
 * The lists a public surface shows: those the API marks public (the default, and lk serve's), or as the owner asked
 * when publishing (lk publish --lists all, none, or named ids). Whatever is asked, no list item's note is shown.
 */
export type PublishedLists = 'public' | 'all' | 'none' | readonly string[];

/** The SQL keeping a list row (of main.lists) that is published. */
function publishedWhere(lists: PublishedLists): string {
  if (lists === 'public') return PUBLIC;
  if (lists === 'all') return '1';
  if (lists === 'none' || lists.length === 0) return '0';
  return `id IN (${lists.map((id) => `'${id.replace(/'/g, "''")}'`).join(', ')})`;
}

/** Makes `db` (a read-only connection of a public surface) read the public projection from now on. */
export function readPublicProjection(db: Database, lists: PublishedLists = 'public'): void {
  const projected: typeof PROJECTED = {
    ...PROJECTED,
    lists: { columns: {}, where: publishedWhere(lists) },
    list_items: { ...PROJECTED.list_items!, where: `list_id IN (SELECT id FROM main.lists WHERE ${publishedWhere(lists)})` },
  };
  db.exec('BEGIN');
  try {
    for (const [table, { columns: replaced, where }] of Object.entries(projected)) {
      const columns = db.prepare(`PRAGMA main.table_info(${table})`).all() as { name: string }[];
      if (columns.length === 0) continue;
      const select = columns.map(({ name }) => `${replaced[name] ?? quoted(name)} AS ${quoted(name)}`);
      const kept = where === undefined ? '' : ` WHERE ${where}`;
      db.exec(`CREATE TEMP VIEW ${table} AS SELECT rowid AS rowid, ${select.join(', ')} FROM main.${table}${kept}`);
    }
    // The mirror's own views (library, reviews_with_titles…) read main's tables: made again in temp, they read these.
    const views = db.prepare("SELECT name, sql FROM main.sqlite_master WHERE type = 'view'").all() as { name: string; sql: string }[];
    for (const { name, sql } of views) {
      const body = /^CREATE\s+VIEW\s+(?:IF\s+NOT\s+EXISTS\s+)?\S+\s+AS\s+([\s\S]*)$/i.exec(sql)?.[1];
      if (body !== undefined) db.exec(`CREATE TEMP VIEW ${quoted(name)} AS ${body}`);
    }
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

function quoted(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
