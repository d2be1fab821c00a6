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
  const safe = name.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\./, '_').slice(0, 100);
  return safe === '' ? '_' : safe;
}

/** 20261122T074501Z: UTC, sorts as text in time order. */
export function exportStamp(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');
}

/** `lk-export-<account>-<UTC timestamp>.json` (or `.json.gz`, or no suffix for a CSV folder). */
export function exportName(account: string, epochMs: number, kind: ExportKind): string {
  return `lk-export-${safeFileName(account)}-${exportStamp(epochMs)}${SUFFIX[kind]}`;
}

/** Deletes all but the `keep` newest exports of this account and kind in `dir`; returns the names removed. */
export async function rotateExports(dir: string, account: string, kind: ExportKind, keep: number): Promise<string[]> {
  const pattern = new RegExp(`^lk-export-${escapeRegExp(safeFileName(account))}-(\\d{8}T\\d{6}Z)${escapeRegExp(SUFFIX[kind])}$`);
  const entries = await readdir(dir, { withFileTypes: true });
  const exports = entries
    .filter((entry) => pattern.test(entry.name) && (kind === 'folder' ? entry.isDirectory() : entry.isFile()))
    .map((entry) => entry.name)
    .sort()
    .reverse();
  const doomed = exports.slice(keep);
  for (const name of doomed) await rm(join(dir, name), { recursive: kind === 'folder', force: true });
  return doomed;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
