import type { Database } from './database.js';

/**
 * Columns of `history` that the report reads for every event of a year, kept beside the event's json (migration 3)
 * so that a year is counted from one index: `minutes` and `pages` (the event's own numbers, as rows.ts reads them)
 * and `domain`, its entry's domain, else its work's (what history_with_titles shows). An event does not carry its
 * domain, so a sync fills that column once its entries and works are in place.
 */

const NUMBER_OF = (field: string) => `CASE WHEN json_type(json, '$.${field}') IN ('integer', 'real') THEN json_extract(json, '$.${field}') END`;

/** The event's domain: its entry's, else the work's (its own work, else its entry's). */
const domainOf = (entry: string, work: string) => `coalesce(
  (SELECT e.domain FROM entries e WHERE e.id = ${entry}),
  (SELECT w.domain FROM works w WHERE w.id = coalesce(${work}, (SELECT e.work_id FROM entries e WHERE e.id = ${entry}))))`;

/** An event's domain from the entries and works written so far: set as the event is written (a first sync writes it once). */
export function eventDomainReader(db: Database): (entryId: string | number | null, workId: string | number | null) => string | null {
  const statement = db.prepare(`SELECT ${domainOf(':entry', ':work')} AS domain`);
  return (entry, work) => (statement.get({ entry, work })?.domain as string | null | undefined) ?? null;
}

/**
 * Sets every event's domain that differs from its entry's or work's: those written before their entry, and those whose
 * entry or work changed since. One pass over history; writes only the rows that change.
 */
export function refreshEventDomains(db: Database): void {
  const domain = domainOf('history.entry_id', 'history.work_id');
  db.exec(`UPDATE history SET domain = ${domain} WHERE domain IS NOT ${domain}`);
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
