import { join } from 'node:path';
import { promisify } from 'node:util';
import { formatBytes } from '../util/units.js';
import { writeFileAtomic, writeFolderAtomic, type FolderFile } from '../util/atomic-file.js';
import { exportName, rotateExports, type ExportKind } from './rotation.js';
import type { IoStreams } from '../output/terminal/io.js';
import { exportToCsvFiles } from './csv.js';
import { createFolder, failingAs, replaceFile } from '../util/output-file.js';

/**
 * Writes an export where the user asked: stdout, one file (-o), or a new timestamped file or CSV folder in a
 * backup folder (--output-dir), then rotates that folder (--keep). Files appear whole or not at all; rotation runs
 * only after the new export is in place.
 */

export type ExportDestination = { to: 'stdout' } | { to: 'file'; path: string } | { to: 'dir'; dir: string; keep: number | undefined };

export interface ExportWriteOptions {
  format: 'json' | 'csv';
  gzip: boolean;
  account: string;
  header: boolean;
  csvSafe: boolean;
  io: IoStreams;
}

export interface ExportToWrite {
  text: string;
  json: Record<string, unknown>;
  fetchedAt: number;
}

/** node:zlib's gzip, loaded by the runs that compress (lk's start does not pay for zlib). */
async function gzip(text: string): Promise<Buffer> {
  const { gzip: gzipCallback } = await import('node:zlib');
  return promisify(gzipCallback)(text);
}

export async function writeExportFiles(exported: ExportToWrite, destination: ExportDestination, options: ExportWriteOptions): Promise<void> {
  const { io } = options;
  if (destination.to === 'stdout') {
    await io.write(options.gzip ? await gzip(exported.text) : exported.text);
    return;
  }
  if (destination.to === 'file') {
    const data = options.gzip ? await gzip(exported.text) : Buffer.from(exported.text, 'utf8');
    await replaceFile(destination.path, data, io);
    io.info(`lk: wrote ${destination.path} (${formatBytes(data.length)})`);
    return;
  }
  const { dir, keep } = destination;
  await failingAs(`cannot create ${dir}`, () => createFolder(dir));
  const kind: ExportKind = options.format === 'csv' ? 'folder' : options.gzip ? 'json.gz' : 'json';
  const name = exportName(options.account, exported.fetchedAt, kind);
  const path = join(dir, name);
  if (options.format === 'csv') {
    const files = await csvFolderFiles(exported.json, options);
    await failingAs(`cannot write ${path}`, () => writeFolderAtomic(path, files));
    io.info(`lk: wrote ${path}/ (${files.map((file) => file.name).join(', ')})`);
  } else {
    const data = options.gzip ? await gzip(exported.text) : Buffer.from(exported.text, 'utf8');
    await failingAs(`cannot write ${path}`, () => writeFileAtomic(path, data));
    io.info(`lk: wrote ${path} (${formatBytes(data.length)})`);
  }
  if (keep !== undefined) {
    const { removed, future } = await failingAs(`the export was written, but rotating ${dir} failed`, () =>
      rotateExports(dir, options.account, kind, keep, name),
    );
    if (removed.length > 0)
      io.info(`lk: removed ${removed.length} older export${removed.length === 1 ? '' : 's'} (--keep ${keep}): ${removed.join(', ')}`);
    for (const other of future) io.warn(`lk: warning: kept ${other}: stamped in the future, after the export just written (is a clock wrong?)`);
  }
}

async function csvFolderFiles(json: Record<string, unknown>, options: ExportWriteOptions): Promise<FolderFile[]> {
  const files = await exportToCsvFiles(json, { header: options.header, csvSafe: options.csvSafe });
  if (!options.gzip) return files.map((file) => ({ name: file.name, data: file.text }));
  return Promise.all(files.map(async (file) => ({ name: `${file.name}.gz`, data: await gzip(file.text) })));
}
