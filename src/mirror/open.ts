import { accessSync, closeSync, constants as fsConstants, existsSync, mkdirSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LkError } from '../util/errors.js';
import { MIRROR_NODE, NEWER_NODE_WAYS } from '../util/newer-node.js';
import type { Database } from './database.js';
import { checkMirrorFile, notAMirror } from './mirror-file.js';
import { refuseNewer } from './migrations.js';
import { LOCKED_HINT, SQLITE_BUSY, SQLITE_CANTOPEN, SQLITE_LOCKED, SQLITE_READONLY, isDiskFull, sqliteCode } from '../util/sqlite-errors.js';

/**
 * SQLite through Node's built-in node:sqlite: nothing to compile, nothing to download. It is loaded here only, when
 * a mirror command runs, so that the rest of lk keeps working on Node 20.
 */

export type { Database, Statement } from './database.js';

interface SqliteModule {
  constants: Record<string, number>;
  DatabaseSync: new (
    path: string,
    options?: { readOnly?: boolean; open?: boolean; enableForeignKeyConstraints?: boolean; timeout?: number },
  ) => Database;
}

export const MINIMUM_NODE = MIRROR_NODE;

/** True where node:sqlite loads without a flag: Node 22.13 and later. */
export function nodeHasSqlite(version = process.versions.node): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 13);
}

let loaded: SqliteModule | undefined;

/** Exit 1 with one line naming the Node `what` needs, unless this one has node:sqlite. */
export function requireSqliteNode(what = 'the local mirror'): void {
  if (!nodeHasSqlite()) throw sqliteRefusal(what);
}

function sqliteRefusal(what: string): LkError {
  return new LkError(
    `${what} needs Node ${MINIMUM_NODE} or later (for its built-in SQLite, node:sqlite); this is Node ${process.versions.node}`,
    1,
    `${NEWER_NODE_WAYS} Every other lk command works on this Node.`,
  );
}

/** node:sqlite, or exit 1 with one line naming the Node it needs. Its ExperimentalWarning (and only it) is silenced. */
export function loadSqlite(what = 'the local mirror'): SqliteModule {
  if (loaded) return loaded;
  const refuse = () => sqliteRefusal(what);
  requireSqliteNode(what);
  const emitWarning = process.emitWarning;
  // Node lines that still call node:sqlite experimental print a warning when it loads: not news to an lk user.
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    const text = typeof warning === 'string' ? warning : warning.message;
    const name = typeof warning === 'string' ? type : warning.name;
    if ((name === 'ExperimentalWarning' || type === 'ExperimentalWarning') && /sqlite/i.test(text)) return;
    return (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    loaded = createRequire(import.meta.url)('node:sqlite') as SqliteModule;
  } catch {
    throw refuse();
  } finally {
    process.emitWarning = emitWarning;
  }
  return loaded;
}

/** How long a reader waits for a lock another program holds on the mirror before it says so. */
const READER_BUSY_MS = 2_000;

/**
 * Opens (creating if need be) the mirror for a sync: WAL, so readers such as Datasette are never blocked. A new mirror
 * is made 0600 (it holds private notes and reviews). Anything else at the path, a mirror of a newer lk, or a file or
 * folder lk cannot write is refused before anything is downloaded or set on it.
 */
export function openForWriting(path: string): Database {
  const { DatabaseSync } = loadSqlite();
  const isNew = refuseUnwritable(path);
  if (isNew) closeSync(openSync(path, 'a', 0o600));
  const db = new DatabaseSync(path, { timeout: 60_000 });
  refuseNewerAndClose(db, path);
  if (!isMirrorOrNew(db)) {
    db.close();
    throw notAMirror(path);
  }
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = OFF; PRAGMA cache_size = -32000;');
  return db;
}

/**
 * What openForWriting refuses before it opens anything: a folder that cannot be made or written, a file lk cannot
 * write or that is not a mirror. Makes the folder; true when no mirror is there yet. lk sync calls it before it
 * takes the mirror's lock (which lives in that folder), so that a refusal never waits for another sync.
 */
export function refuseUnwritable(path: string): boolean {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new LkError(
      `cannot make the folder of the mirror ${path}: ${whyNoFolder(dirname(path), error)}`,
      1,
      'Choose another place with --db FILE.',
    );
  }
  const isNew = !checkMirrorFile(path, { emptyIsNew: true });
  requireWritable(path);
  return isNew;
}

/**
 * Why a folder could not be made, in words: a recursive mkdir under a read-only mount says ENOENT (the first folder
 * it could not make), so the nearest folder that exists is asked whether it can be written.
 */
function whyNoFolder(folder: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'the disk is full';
  let existing = folder;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  try {
    accessSync(existing, fsConstants.W_OK);
  } catch (problem) {
    const why = (problem as NodeJS.ErrnoException).code;
    if (why === 'EROFS') return `${existing} is on a read-only file system`;
    if (why === 'EACCES' || why === 'EPERM') return `${existing} is read-only for this user`;
  }
  return (error as Error).message;
}

/** lk sync writes the mirror and, beside it, its journal and lock: both the file and its folder must be writable. */
function requireWritable(path: string): void {
  const targets = [[dirname(path), 'folder'] as const, ...(existsSync(path) ? [[path, 'file'] as const] : [])];
  for (const [target, what] of targets) {
    try {
      accessSync(target, fsConstants.W_OK);
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code === 'EROFS' ? 'is on a read-only file system' : 'is read-only for this user';
      throw new LkError(
        `cannot sync ${path}: its ${what}${what === 'folder' ? ` ${dirname(path)}` : ''} ${reason}`,
        1,
        'Every reader still reads it; to sync, give your user write access, or sync a mirror of your own with --db FILE.',
      );
    }
  }
}

/**
 * Opens an existing mirror read-only: a write statement fails inside SQLite. A reader waits briefly for a lock (a
 * sync never holds one against readers: WAL), then names it. A mirror this user cannot write beside (another user's
 * folder, a read-only mount) is read as an immutable file, since SQLite cannot make the index of the WAL there.
 */
export function openForReading(path: string): Database {
  requireMirror(path);
  try {
    return openReadOnly(path, path);
  } catch (error) {
    const code = sqliteCode(error);
    if (code !== SQLITE_CANTOPEN && code !== SQLITE_READONLY) throw readError(error, path);
  }
  try {
    return openReadOnly(`${pathToFileURL(path).href}?immutable=1`, path);
  } catch (error) {
    throw readError(error, path);
  }
}

/** An SQLite file with no table yet: a first lk sync has made it and not finished (its tables come in one commit). */
function notYet(path: string): LkError {
  return new LkError(
    `the mirror ${path} holds nothing yet`,
    1,
    'A first lk sync writes it as it runs: try again once it has finished, or run lk sync.',
  );
}

/** A mirror has an entries table; a new file has no table at all. Any other database is someone else's. */
function isMirrorOrNew(db: Database): boolean {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
    .all()
    .map((row) => row.name);
  return tables.length === 0 || tables.includes('entries');
}

function openReadOnly(location: string, path: string): Database {
  const { DatabaseSync } = loadSqlite();
  const db = new DatabaseSync(location, { readOnly: true, timeout: READER_BUSY_MS });
  try {
    refuseNewer(db, path);
    if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'entries'").get())
      throw isMirrorOrNew(db) ? notYet(path) : notAMirror(path);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/** node:sqlite's error (no path, no advice) as one line that names the mirror; lk's own errors as they are. */
export function readError(error: unknown, path: string): unknown {
  if (error instanceof LkError) return error;
  if (isDiskFull(error, dirname(path))) return new DiskFull(path);
  const code = sqliteCode(error);
  if (code === SQLITE_BUSY || code === SQLITE_LOCKED) return lockedError(path);
  if (code === undefined) return error;
  return new LkError(
    `cannot read the mirror ${path}: ${(error as Error).message}`,
    1,
    'If it is damaged, move it aside and run lk sync to make it again.',
  );
}

/** The disk holding the mirror is full (SQLite cannot even grow the WAL index to read it): named with its folder. */
export class DiskFull extends LkError {
  constructor(readonly path: string) {
    super(`the disk is full: cannot use the mirror ${path}`, 1, `Free some space there (df -h ${dirname(path)}).`);
  }
}

/** Another program holds a lock on the mirror that readers must wait for (lk sync never does: WAL). */
export function lockedError(path: string): LkError {
  return new LkError(`the mirror ${path} is locked by another program writing to it (still after ${READER_BUSY_MS / 1000}s)`, 1, LOCKED_HINT);
}

/** Exit 1, naming lk sync, when there is no mirror at `path`; one line naming the file for anything else that is no mirror. */
export function requireMirror(path: string): void {
  if (!checkMirrorFile(path)) {
    throw new LkError(`no mirror at ${path}`, 1, 'Create it with `lk sync` (and keep it fresh from cron: see `lk sync --help`).');
  }
}

function refuseNewerAndClose(db: Database, path: string): void {
  try {
    refuseNewer(db, path);
  } catch (error) {
    db.close();
    throw readError(error, path);
  }
}
