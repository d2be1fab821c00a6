import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { LkError } from '../util/errors.js';
import type { Database } from './database.js';
import { refuseNewer } from './migrations.js';

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

export const MINIMUM_NODE = '22.13';

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
    'Every other lk command works on this Node.',
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

/**
 * Opens (creating if need be) the mirror for a sync: WAL, so readers such as Datasette are never blocked. A mirror of
 * a newer lk is refused before anything is set on it.
 */
export function openForWriting(path: string): Database {
  const { DatabaseSync } = loadSqlite();
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const db = new DatabaseSync(path, { timeout: 60_000 });
  refuseNewerAndClose(db, path);
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = OFF; PRAGMA cache_size = -32000;');
  return db;
}

/** Opens an existing mirror read-only: a write statement fails inside SQLite. */
export function openForReading(path: string): Database {
  const { DatabaseSync } = loadSqlite();
  requireMirror(path);
  const db = new DatabaseSync(path, { readOnly: true, timeout: 10_000 });
  refuseNewerAndClose(db, path);
  return db;
}

/** Exit 1, naming lk sync, when there is no mirror at `path`. */
export function requireMirror(path: string): void {
  if (!existsSync(path)) {
    throw new LkError(`no mirror at ${path}`, 1, 'Create it with `lk sync` (and keep it fresh from cron: see `lk sync --help`).');
  }
}

function refuseNewerAndClose(db: Database, path: string): void {
  try {
    refuseNewer(db, path);
  } catch (error) {
    db.close();
    throw error;
  }
}
