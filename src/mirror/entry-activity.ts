import type { Database } from './database.js';

/**
 * `entries.last_activity`: each entry's newest dated event — its own events, and those of its work that name no entry
 * — kept by the sync (migration 5), so that lk next reads the entries in progress most recently active first from one
 * index instead of seeking every entry's history at each run. The API gives dates as ISO 8601 in UTC with
 * milliseconds and a Z (docs/api.md): as text they sort as they do in time, so max() and ORDER BY need no parsing.
 */

const NEWEST_EVENT = `(SELECT max(at) FROM (
  SELECT max(date) AS at FROM history WHERE entry_id = e.id
  UNION ALL SELECT max(date) FROM history WHERE entry_id IS NULL AND work_id = e.work_id))`;

/** Sets last_activity where it differs from the history the mirror holds: one pass, writing only what changed. */
export function refreshLastActivity(db: Database): void {
  db.exec(`UPDATE entries SET last_activity = fresh.at
    FROM (SELECT e.id, ${NEWEST_EVENT} AS at FROM entries e) AS fresh
    WHERE entries.id = fresh.id AND entries.last_activity IS NOT fresh.at`);
}

/**
 * Migration step 5: the column, filled, and the indexes lk next walks — in progress by phase, then by phase and
 * domain — in its order (newest activity first, then title, then id; src/overview/next.ts rankByActivity).
 */
export function addLastActivity(db: Database): void {
  db.exec(`
    ALTER TABLE entries ADD COLUMN last_activity TEXT;
    CREATE INDEX entries_phase_activity ON entries(phase, last_activity DESC, title_key, id);
    CREATE INDEX entries_phase_domain_activity ON entries(phase, domain, last_activity DESC, title_key, id);
  `);
  refreshLastActivity(db);
}
