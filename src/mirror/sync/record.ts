import type { Database } from '../database.js';
import type { Counts } from '../writer.js';
import type { AreaName, SyncSource } from './plan.js';

/** One sync as the mirror remembers it: mirror_meta's values now, and a row of sync_runs. */
export interface SyncRecord {
  source: SyncSource;
  startedAt: number;
  finishedAt: number;
  /** The server's moment the mirror now shows: the export's, else when the pages were read. */
  snapshotAt: number;
  requests: number;
  counts: Counts;
  baseUrl: string;
  profile: string;
  account: string | undefined;
  version: string;
  /** The areas a 403 or 404 left as they were (plan.ts leftOutBecause): their rows are not the server's of snapshotAt. */
  leftOut: readonly AreaName[];
}

/** mirror_meta's key for the areas the last sync left out: a JSON array, `[]` when it read them all. */
const LEFT_OUT = 'left_out';

export function recordRun(db: Database, run: SyncRecord): void {
  const meta = db.prepare('INSERT INTO mirror_meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
  meta.run('snapshot_at', new Date(run.snapshotAt).toISOString());
  meta.run('synced_at', new Date(run.finishedAt).toISOString());
  meta.run('source', run.source);
  meta.run('base_url', run.baseUrl);
  meta.run('profile', run.profile);
  if (run.account) meta.run('account', run.account);
  meta.run(LEFT_OUT, JSON.stringify(run.leftOut));
  db.prepare(
    'INSERT INTO sync_runs(started_at, finished_at, source, requests, rows_added, rows_changed, rows_removed, base_url, account, lk_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(
    new Date(run.startedAt).toISOString(),
    new Date(run.finishedAt).toISOString(),
    run.source,
    run.requests,
    run.counts.added,
    run.counts.changed,
    run.counts.removed,
    run.baseUrl,
    run.account ?? null,
    run.version,
  );
}

/** The server's moment the mirror showed before this sync (mirror_meta snapshot_at); none for a new mirror. */
export function lastSnapshot(db: Database): number | undefined {
  const snapshot = db.prepare("SELECT value FROM mirror_meta WHERE key = 'snapshot_at'").get()?.value;
  return typeof snapshot === 'string' ? Date.parse(snapshot) : undefined;
}

/**
 * The areas the last sync could not read, or undefined when no sync recorded them (every sync of an lk before the
 * record: it cannot tell an area it was refused from one that is empty).
 */
export function areasLeftOut(db: Database): string[] | undefined {
  const value = db.prepare('SELECT value FROM mirror_meta WHERE key = ?').get(LEFT_OUT)?.value;
  if (typeof value !== 'string') return undefined;
  try {
    const areas = JSON.parse(value) as unknown;
    return Array.isArray(areas) ? areas.filter((area): area is string => typeof area === 'string') : undefined;
  } catch {
    return undefined; // not written by lk: read as no record
  }
}

/** Rows the closing line counts. */
export function rowCounts(db: Database): Record<string, number> {
  const rows: Record<string, number> = {};
  for (const table of ['entries', 'history', 'lists', 'reviews']) rows[table] = Number(db.prepare(`SELECT count(*) AS n FROM ${table}`).get()!.n);
  return rows;
}
