/**
 * Where a snapshot comes from: the local SQLite mirror of `lk sync` when there is one (tables entries, history and
 * reviews, each row keeping the raw item in a `json` column), else an export document.
 * node:sqlite exists from Node 22.13; it is imported only when a mirror is read, and its absence is an answer
 * (MirrorUnavailable), not a crash.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AccountSnapshot } from './model.js';

/** CLI.md: LK_DATA_DIR, else $XDG_DATA_HOME/lk, else ~/.local/share/lk. */
export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.LK_DATA_DIR) return env.LK_DATA_DIR;
  if (env.XDG_DATA_HOME) return join(env.XDG_DATA_HOME, 'lk');
  return join(homedir(), '.local', 'share', 'lk');
}

/** The mirror `lk sync` writes by default: one file per profile under the data folder. */
export function defaultMirrorPath(env: NodeJS.ProcessEnv, profile: string): string {
  return join(dataDir(env), `${profile}.db`);
}

export function mirrorExists(path: string): boolean {
  return existsSync(path);
}

/** The mirror cannot be read here (no node:sqlite, or not a mirror); `reason` says why, in words for stderr. */
export class MirrorUnavailable extends Error {}

interface SqliteModule {
  DatabaseSync: new (path: string, options?: { readOnly?: boolean }) => {
    prepare(sql: string): { all(): unknown[] };
    close(): void;
  };
}

async function loadSqlite(): Promise<SqliteModule> {
  // Node 22 and 24 announce SQLite as experimental on stderr when it loads: noise in a summary people read.
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (/SQLite is an experimental feature/.test(typeof warning === 'string' ? warning : warning.message)) return;
    (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    // A variable specifier: bundlers and Node 20's type-checking leave it alone, and it is resolved only here.
    const name = 'node:sqlite';
    return (await import(name)) as SqliteModule;
  } catch {
    throw new MirrorUnavailable(`reading the mirror needs node:sqlite (Node 22.13 or later); this is Node ${process.versions.node}`);
  } finally {
    process.emitWarning = emitWarning;
  }
}

/** The raw items of the mirror's entries, history and reviews tables (a missing table is an empty collection). */
export async function readMirror(path: string): Promise<AccountSnapshot> {
  const { DatabaseSync } = await loadSqlite();
  let db: InstanceType<SqliteModule['DatabaseSync']>;
  try {
    db = new DatabaseSync(path, { readOnly: true });
  } catch (error) {
    throw new MirrorUnavailable(`cannot open the mirror ${path}: ${(error as Error).message}`);
  }
  try {
    const tables = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')").all() as { name: string }[]).map((row) => row.name),
    );
    if (!tables.has('entries')) throw new MirrorUnavailable(`${path} has no entries table: is it an lk mirror?`);
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
    if (error instanceof MirrorUnavailable) throw error;
    throw new MirrorUnavailable(`cannot read the mirror ${path}: ${(error as Error).message}`);
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

/** The export's collections: library (or entries), history, reviews; SPEC.md fixes no names, so the usual ones. */
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
