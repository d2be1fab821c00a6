import { LkError } from '../util/errors.js';
import type { Database } from './database.js';
import { addLastActivity } from './entry-activity.js';
import { addEventColumns } from './event-columns.js';
import { SCHEMA } from './schema.js';

/**
 * How a mirror's schema evolves, sqlite-utils' and Datasette's way: `PRAGMA user_version` counts the steps a mirror
 * has been through, and a sync runs the ones it has not, in its own transaction (a failed step leaves the mirror as it
 * was). A step is added at the end, never changed once released: a mirror made by an older lk is upgraded in place;
 * one made by a newer lk (a version past this list) is refused and never altered.
 */
const MIGRATIONS: ReadonlyArray<(db: Database) => void> = [
  // 1. The tables, indexes, full-text tables and views (a mirror of an lk before migrations has them at version 0).
  (db) => db.exec(SCHEMA),
  // 2. The version lives in user_version now: the schema_version row (written, never read) goes.
  (db) => db.exec("DELETE FROM mirror_meta WHERE key = 'schema_version'"),
  // 3. history.domain, minutes and pages (filled from each event's entry, work and json) and the report's indexes.
  addEventColumns,
  // 4. Each entry's newest event in one seek (lk next, lk status): max(date) per entry_id from the index alone.
  (db) => db.exec('CREATE INDEX IF NOT EXISTS history_entry_date ON history(entry_id, date)'),
  // 5. entries.last_activity, each entry's newest dated event, kept by the sync: lk next reads its order from an index.
  addLastActivity,
  // 6. lk notify's ledger: what each target (a hash of its URL without the password) has taken, kept across syncs.
  (db) => db.exec(NOTIFY_SENT_TABLE),
  // 7. lk notify's failures for a message's own content (too long, refused): counted per run, given up after a few.
  (db) => db.exec(NOTIFY_FAILED_TABLE),
  // 8. entries.changed_at: when the sync that last added or changed the entry's row began (a calendar's DTSTAMP when
  //    the entry carries no update time of its own: read.ts calendarChanges).
  (db) => db.exec('ALTER TABLE entries ADD COLUMN changed_at TEXT'),
];

/** The first version whose entries have changed_at. */
export const ENTRY_CHANGES_VERSION = 8;

/** lk notify's ledger (src/notify/ledger.ts): a row per message a target took, written the moment it was taken. */
const NOTIFY_SENT_TABLE = `CREATE TABLE IF NOT EXISTS notify_sent (
  target TEXT NOT NULL,
  key TEXT NOT NULL,
  sent_at TEXT NOT NULL,
  PRIMARY KEY (target, key)
) WITHOUT ROWID`;

/** A row per message a target refused for its content: how many runs it was tried, and the last reason. */
const NOTIFY_FAILED_TABLE = `CREATE TABLE IF NOT EXISTS notify_failed (
  target TEXT NOT NULL,
  key TEXT NOT NULL,
  tries INTEGER NOT NULL,
  error TEXT NOT NULL,
  failed_at TEXT NOT NULL,
  PRIMARY KEY (target, key)
) WITHOUT ROWID`;

/** The first version that has all of lk notify's ledger (notify_sent, notify_failed). */
export const NOTIFY_LEDGER_VERSION = 7;

/** The mirror version this lk writes: the number of steps it knows. */
export const SCHEMA_VERSION = MIGRATIONS.length;

function mirrorVersion(db: Database): number {
  return Number(db.prepare('PRAGMA user_version').get()?.user_version ?? 0);
}

/** Throws when the mirror's version is past the steps this lk knows (made by a newer lk): it is left as it is. */
export function refuseNewer(db: Database, path: string): void {
  const version = mirrorVersion(db);
  if (version <= SCHEMA_VERSION) return;
  throw new LkError(
    `the mirror ${path} was made by a newer lk (mirror version ${version}; this lk knows up to ${SCHEMA_VERSION}): left as it is`,
    1,
    'Upgrade lk to use it, or keep a mirror for this lk with --db FILE.',
  );
}

/** The first version whose history has domain, minutes and pages: what lk report reads. */
export const EVENT_COLUMNS_VERSION = 3;

/** The first version whose entries have last_activity (lk next reads a mirror before it the slower way). */
export const LAST_ACTIVITY_VERSION = 5;

/** Whether the mirror has had the steps up to `version`. */
export function hasVersion(db: Database, version: number): boolean {
  return mirrorVersion(db) >= version;
}

/** Throws when the mirror has not had the steps a reader needs (an older lk made it; no sync since): lk sync upgrades it. */
export function refuseOlder(db: Database, needed: number, command: string): void {
  if (hasVersion(db, needed)) return;
  const version = mirrorVersion(db);
  throw new LkError(
    `the mirror was made by an older lk (mirror version ${version}; ${command} needs ${needed}): run lk sync to upgrade it in place`,
    1,
  );
}

/** Runs the steps the mirror has not had, inside the caller's transaction; returns the version it was at. */
export function migrate(db: Database): number {
  const from = mirrorVersion(db);
  for (let version = from; version < SCHEMA_VERSION; version++) {
    MIGRATIONS[version]!(db);
    db.exec(`PRAGMA user_version = ${version + 1}`);
  }
  return from;
}
