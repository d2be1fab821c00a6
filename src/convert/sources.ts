/**
 * Where a snapshot comes from: the local SQLite mirror of `lk sync` when there is one (tables entries, history and
 * reviews, each row keeping the raw item in a `json` column), else an export document.
 * node:sqlite exists from Node 22.13; it is imported only when a mirror is read, and its absence is an answer
 * (MirrorUnavailable), not a crash.
 */
import { lstatSync } from 'node:fs';
import { loadSqlite, openForReading, readError, type Database } from '../mirror/open.js';
import { LkError } from '../util/errors.js';
import type { AccountSnapshot } from './model.js';

/** Something is at `path` (a link too, dangling or not): the mirror is read, or refused with the reason. */
export function mirrorExists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The mirror cannot be read here (no node:sqlite, or not a mirror); `reason` says why, in words for stderr. */
export class MirrorUnavailable extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** node:sqlite through the mirror's own loader; on a Node without it, an answer (fall back to the export), not a failure. */
function sqlite(): ReturnType<typeof loadSqlite> {
  try {
    return loadSqlite('reading the mirror');
  } catch (error) {
    throw new MirrorUnavailable((error as Error).message);
  }
}

/**
 * The raw items of the mirror's entries, history and reviews tables (a missing table is an empty collection). What
 * every reader refuses (anything but a mirror, a newer lk's, a lock) is refused here too, as MirrorUnavailable with
 * lk's own line and hint.
 */
export function readMirror(path: string): AccountSnapshot {
  sqlite();
  let db: Database;
  try {
    db = openForReading(path);
  } catch (error) {
    if (error instanceof LkError) throw new MirrorUnavailable(error.message, error.hint);
    throw error;
  }
  try {
    const tables = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')").all() as { name: string }[]).map((row) => row.name),
    );
    const items = (table: string): unknown[] => {
      if (!tables.has(table)) return [];
      return (db.prepare(`SELECT json FROM "${table}"`).all() as { json: unknown }[]).flatMap((row) => {
        if (typeof row.json !== 'string') return [];
        try {
          return [JSON.parse(row.json) as unknown];
        } catch {
          return [];
        }
      });
    };
    return { entries: items('entries'), history: items('history'), reviews: items('reviews') };
  } catch (error) {
    const refused = readError(error, path);
    if (refused instanceof LkError) throw new MirrorUnavailable(refused.message, refused.hint);
    throw refused;
  } finally {
    db.close();
  }
}

function list(doc: Record<string, unknown>, ...names: string[]): unknown[] {
  for (const name of names) {
    const value = doc[name];
    if (Array.isArray(value)) return value;
  }
  return [];
}

/** The export's collections: library (or entries), history, reviews; docs/api.md fixes no names, so the usual ones. */
export function snapshotFromExport(doc: Record<string, unknown>): AccountSnapshot {
  return {
    entries: list(doc, 'library', 'entries', 'libraryEntries'),
    history: list(doc, 'history', 'events'),
    reviews: list(doc, 'reviews'),
  };
}

/** The account's name in an export, for MAL's <myinfo>. */
export function exportAccountName(doc: Record<string, unknown>): string | undefined {
  const account = doc.account as Record<string, unknown> | undefined;
  const name = account?.username ?? account?.name;
  return typeof name === 'string' && name !== '' ? name : undefined;
}
