import { configDir, mirrorPath } from '../config/paths.js';
import { readStoredConfig } from '../config/store.js';

/**
 * Entry and list ids for Tab, from the local mirror (`lk sync`), for `lk completion --ids entries|lists`, which the
 * completion scripts run at Tab time: never the network, never a key. Built on its own (dist/ids.cjs) so that
 * bin/lk.cjs answers without loading the program. Nothing, silently and at once, when there is no mirror, it is
 * locked or damaged, or this Node has no node:sqlite (before 22.13).
 */

export const ID_KINDS = ['entries', 'lists'] as const;
export type IdKind = (typeof ID_KINDS)[number];

/** How many ids Tab offers at most: a shell lists them all, and a library can hold thousands. */
const MAX_IDS = 2000;

/** The profile a command would use: LK_PROFILE, else the one `lk auth switch` chose, else default. */
function profileName(env: NodeJS.ProcessEnv): string {
  if (env.LK_PROFILE) return env.LK_PROFILE;
  try {
    const stored = readStoredConfig(configDir(env)).defaultProfile;
    if (typeof stored === 'string' && stored !== '') return stored;
  } catch {
    // an unreadable config: the default profile
  }
  return 'default';
}

/** node:sqlite is in Node from 22.13 (without a flag); on older Node, nothing. */
export function hasSqlite(version: string = process.versions.node): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 13);
}

export function mirrorIds(kind: IdKind, env: NodeJS.ProcessEnv = process.env): string[] {
  if (!hasSqlite() || !(ID_KINDS as readonly string[]).includes(kind)) return [];
  // The file `lk sync` writes: <data folder>/<profile>.db.
  const file = mirrorPath(env, profileName(env));
  // Node 22 announces node:sqlite as experimental on stderr: not at Tab time.
  const emitWarning = process.emitWarning;
  process.emitWarning = () => {};
  try {
    // getBuiltinModule is in every Node that has node:sqlite, and works from ESM and CommonJS alike.
    const getBuiltinModule = (process as unknown as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
    const sqlite = getBuiltinModule?.call(process, 'node:sqlite') as SqliteModule | undefined;
    if (!sqlite) return [];
    // Read-only and without waiting: a sync holding a lock means no ids this time, not a stuck Tab.
    const db = new sqlite.DatabaseSync(file, { readOnly: true, timeout: 0 });
    try {
      const rows = db.prepare(`SELECT id FROM ${kind} ORDER BY id LIMIT ${MAX_IDS}`).all() as Array<{ id: unknown }>;
      return rows.map((row) => String(row.id)).filter((id) => id !== '' && !/[\s\u0000-\u001f\u007f]/.test(id));
    } finally {
      db.close();
    }
  } catch {
    return [];
  } finally {
    process.emitWarning = emitWarning;
  }
}

/** The little of node:sqlite used here (@types/node for Node 20 does not describe it). */
interface SqliteModule {
  DatabaseSync: new (
    path: string,
    options: { readOnly: boolean; timeout: number },
  ) => {
    prepare(sql: string): { all(): unknown[] };
    close(): void;
  };
}

export function idLines(kind: string, env: NodeJS.ProcessEnv = process.env): string {
  return mirrorIds(kind as IdKind, env)
    .map((id) => `${id}\n`)
    .join('');
}
