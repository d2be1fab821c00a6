import { statfsSync } from 'node:fs';
/** SQLite's errors as node:sqlite reports them, for the mirror and for the program's last word on an error alike. */

export const SQLITE_BUSY = 5;
export const SQLITE_LOCKED = 6;
export const SQLITE_READONLY = 8;
export const SQLITE_CANTOPEN = 14;

/** What to do about a mirror another program holds locked. */
export const LOCKED_HINT = 'Try again once it has finished; an sqlite3 session holding a transaction open on it is the usual cause.';

/** SQLite's primary result code of a node:sqlite error (errcode holds the extended one). */
export function sqliteCode(error: unknown): number | undefined {
  const code = (error as { errcode?: unknown } | undefined)?.errcode;
  return typeof code === 'number' ? code & 0xff : undefined;
}

/** "database is locked": node:sqlite's error, or its message as the query process passes it on. */
export function isSqliteLocked(error: unknown): boolean {
  const code = sqliteCode(error);
  if (code !== undefined) return code === SQLITE_BUSY || code === SQLITE_LOCKED;
  return error instanceof Error && /^database (table )?is locked$/.test(error.message);
}

export const SQLITE_IOERR = 10;
export const SQLITE_FULL = 13;

/**
 * The disk (or the quota) is full: SQLite's SQLITE_FULL, the system's ENOSPC / EDQUOT on a file beside it, or an
 * SQLite I/O error in `folder` when its file system has no block left (growing the WAL index fails that way).
 */
export function isDiskFull(error: unknown, folder: string): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (sqliteCode(error) === SQLITE_FULL || code === 'ENOSPC' || code === 'EDQUOT') return true;
  if (sqliteCode(error) !== SQLITE_IOERR) return false;
  try {
    return statfsSync(folder).bavail === 0;
  } catch {
    return false;
  }
}
