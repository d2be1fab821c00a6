import type { Database } from './database.js';

/**
 * Columns of `history` that the report reads for every event of a year, kept beside the event's json (migration 3)
 * so that a year is counted from one index: `minutes` and `pages` (the event's own numbers, as rows.ts reads them)
 * and `domain`, its entry's domain, else its work's (what history_with_titles shows). An event does not carry its
 * domain, so a sync fills that column once its entries and works are in place.
 */

const NUMBER_OF = (field: string) => `CASE WHEN json_type(json, '$.${field}') IN ('integer', 'real') THEN json_extract(json, '$.${field}') END`;

/** The event's domain: its entry's, else the work's (its own work, else its entry's). */
const EVENT_DOMAIN = `coalesce(
  (SELECT e.domain FROM entries e WHERE e.id = history.entry_id),
  (SELECT w.domain FROM works w WHERE w.id = coalesce(history.work_id, (SELECT e.work_id FROM entries e WHERE e.id = history.entry_id))))`;

/** Sets every event's domain that differs from its entry's or work's (one pass; writes only the rows that change). */
export function refreshEventDomains(db: Database): void {
  db.exec(`UPDATE history SET domain = ${EVENT_DOMAIN} WHERE domain IS NOT ${EVENT_DOMAIN}`);
}

/** Migration step 3: the columns, filled from what the mirror holds, and the indexes the report's queries use. */
export function addEventColumns(db: Database): void {
  db.exec(`
    ALTER TABLE history ADD COLUMN domain TEXT;
    ALTER TABLE history ADD COLUMN minutes REAL;
    ALTER TABLE history ADD COLUMN pages REAL;
    UPDATE history SET minutes = ${NUMBER_OF('minutes')}, pages = ${NUMBER_OF('pages')}
      WHERE json_extract(json, '$.minutes') IS NOT NULL OR json_extract(json, '$.pages') IS NOT NULL;
    DROP INDEX IF EXISTS history_date;
    CREATE INDEX history_report ON history(date, domain, kind, minutes, pages, entry_id, cycle);
    CREATE INDEX IF NOT EXISTS entries_finished_at ON entries(finished_at);
  `);
  refreshEventDomains(db);
}
