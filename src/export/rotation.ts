import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Names of the exports `--output-dir` writes, and `--keep` rotation over them. Only names this module would have
 * written, for this account and this kind, are ever candidates for deletion: any other file in the folder is left
 * alone.
 */

/** A plain JSON file, a gzipped one, or a folder of CSV files. */
export type ExportKind = 'json' | 'json.gz' | 'folder';

const SUFFIX: Record<ExportKind, string> = { json: '.json', 'json.gz': '.json.gz', folder: '' };

/** Letters, digits, dot, dash and underscore; anything else becomes _ so a name can never leave its folder. */
export function safeFileName(name: string): string {
  const safe = name
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\./, '_')
    .slice(0, 100);
  return safe === '' ? '_' : safe;
}

/** 20261122T074501Z: UTC, sorts as text in time order. */
export function exportStamp(epochMs: number): string {
  return new Date(epochMs)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

/** `lk-export-<account>-<UTC timestamp>.json` (or `.json.gz`, or no suffix for a CSV folder). */
export function exportName(account: string, epochMs: number, kind: ExportKind): string {
  return `lk-export-${safeFileName(account)}-${exportStamp(epochMs)}${SUFFIX[kind]}`;
}

export interface Rotation {
  /** Names deleted. */
  removed: string[];
  /** Names left alone: stamped after the export just written (another machine's clock, or this one's, is off). */
  future: string[];
}

/**
 * Deletes all but the `keep` newest exports of this account and kind in `dir`. The export just written counts as
 * the newest whatever the names say, and is never deleted; exports stamped after it cannot be placed in time and
 * are left alone (and reported), so a skewed clock never costs a backup. The rest go oldest first, by the fetch
 * time their names hold.
 */
export async function rotateExports(dir: string, account: string, kind: ExportKind, keep: number, justWritten: string): Promise<Rotation> {
  const pattern = new RegExp(`^lk-export-${escapeRegExp(safeFileName(account))}-(\\d{8}T\\d{6}Z)${escapeRegExp(SUFFIX[kind])}$`);
  const newest = stampTime(pattern.exec(justWritten)?.[1]);
  const entries = await readdir(dir, { withFileTypes: true });
  const older: Array<{ name: string; at: number }> = [];
  const future: string[] = [];
  for (const entry of entries) {
    const match = pattern.exec(entry.name);
    if (!match || entry.name === justWritten || !(kind === 'folder' ? entry.isDirectory() : entry.isFile())) continue;
    const at = stampTime(match[1]);
    if (at === undefined) continue;
    if (newest === undefined || at >= newest) future.push(entry.name);
    else older.push({ name: entry.name, at });
  }
  older.sort((a, b) => b.at - a.at);
  const removed = older.slice(Math.max(0, keep - 1)).map((entry) => entry.name);
  for (const name of removed) await rm(join(dir, name), { recursive: kind === 'folder', force: true });
  return { removed, future: future.sort() };
}

/** 20261122T074501Z as epoch ms; undefined for a stamp that is no real moment. */
function stampTime(stamp: string | undefined): number | undefined {
  const parts = stamp && /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(stamp);
  if (!parts) return undefined;
  const ms = Date.parse(`${parts[1]}-${parts[2]}-${parts[3]}T${parts[4]}:${parts[5]}:${parts[6]}Z`);
  return Number.isNaN(ms) ? undefined : ms;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
