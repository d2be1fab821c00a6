import { promisify } from 'node:util';
import { exportToCsvFiles } from './csv.js';
import { gzip as gzipCallback } from 'node:zlib';

/**
 * The export's bytes as lk keeps them: its JSON text (gzipped with --gzip), or one CSV a collection (each gzipped
 * with --gzip). Where they go — stdout, the -o file, a new entry in the --output-dir folder — is the wrapper's
 * (src/output/document.ts), which writes each whole or not at all.
 */

/** node:zlib's gzip, loaded by the runs that compress (lk's start does not pay for zlib). */
async function gzip(text: string): Promise<Buffer> {
  return promisify(gzipCallback)(text);
}

export async function exportBytes(text: string, compress: boolean): Promise<string | Buffer> {
  return compress ? gzip(text) : text;
}

export interface CsvOptions {
  header: boolean;
  csvSafe: boolean;
  gzip: boolean;
}

/** The files of the CSV folder: one per collection of the export, `.csv.gz` with --gzip. */
export async function csvFolderFiles(json: Record<string, unknown>, options: CsvOptions): Promise<Array<{ name: string; data: string | Buffer }>> {
  const files = await exportToCsvFiles(json, { header: options.header, csvSafe: options.csvSafe });
  if (!options.gzip) return files.map((file) => ({ name: file.name, data: file.text }));
  return Promise.all(files.map(async (file) => ({ name: `${file.name}.gz`, data: await gzip(file.text) })));
}
