import type { Database } from '../mirror/open.js';

/**
 * The public projection of the mirror: what `lk serve` may show anyone who reaches it (a calendar URL shared with its
 * token, a dashboard on the LAN). This is the one place that decides it, for every route and the index: each
 * connection serve reads through gets TEMP views named like the tables, and SQLite looks a name up in `temp` before
 * `main`, so every query of every document reads the projection without knowing it.
 *
 * Left out: an entry's notes, a list item's note, and the text (title and body) of a review that is private or
 * marked as a spoiler; the review itself stays (its rating, that it exists). Notifications stay: /status.json shows
 * them, as a dashboard would.
 */

/** JSON members that hold notes, removed from the item a table keeps. */
const NOTE_PATHS = ["'$.notes'", "'$.note'"];
/** JSON members of a review's text (the alt spelling, headline, too). */
const REVIEW_TEXT_PATHS = ["'$.title'", "'$.headline'", "'$.body'", "'$.text'", "'$.content'"];

/** A review no one else may read in full: marked private (or not public), or a spoiler. */
const WITHHELD_REVIEW = `(
  json_extract(json, '$.spoiler') = 1 OR json_extract(json, '$.hasSpoilers') = 1 OR json_extract(json, '$.containsSpoilers') = 1
  OR json_extract(json, '$.private') = 1 OR json_extract(json, '$.isPrivate') = 1 OR json_extract(json, '$.public') = 0
  OR lower(coalesce(json_extract(json, '$.visibility'), 'public')) NOT IN ('public')
)`;

/** Per table: the SQL standing for a column (any column not named is read as it is). */
const PROJECTED: Record<string, Record<string, string>> = {
  entries: { notes: 'NULL', json: `json_remove(json, ${NOTE_PATHS.join(', ')})` },
  list_items: { note: 'NULL', json: `json_remove(json, ${NOTE_PATHS.join(', ')})` },
  reviews: {
    title: `CASE WHEN ${WITHHELD_REVIEW} THEN NULL ELSE title END`,
    body: `CASE WHEN ${WITHHELD_REVIEW} THEN NULL ELSE body END`,
    json: `CASE WHEN ${WITHHELD_REVIEW} THEN json_remove(json, ${REVIEW_TEXT_PATHS.join(', ')}) ELSE json END`,
  },
};

/** Makes `db` (a read-only connection of lk serve) read the public projection from now on. */
export function readPublicProjection(db: Database): void {
  db.exec('BEGIN');
  try {
    for (const [table, replaced] of Object.entries(PROJECTED)) {
      const columns = db.prepare(`PRAGMA main.table_info(${table})`).all() as { name: string }[];
      if (columns.length === 0) continue;
      const select = columns.map(({ name }) => `${replaced[name] ?? quoted(name)} AS ${quoted(name)}`);
      db.exec(`CREATE TEMP VIEW ${table} AS SELECT rowid AS rowid, ${select.join(', ')} FROM main.${table}`);
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
