import { open, type FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { LkError } from '../util/errors.js';
import { DiffInputError, type DiffSource } from './compare.js';
import { scanItems, ScanError, type ScanItem } from '../util/json-scan.js';

/** gzip's magic number: a compressed export is told by its first bytes, whatever its name. */
const GZIP_MAGIC = [0x1f, 0x8b];
/** Bytes read at a time (fewer, larger reads cost less)… */
const READ = 1 << 20;
/** …and handed to the scanner at a time: small slices keep the two sides in step (compare.ts), fewer items wait. */
const SLICE = 64 * 1024;

/** An export file written by lk export, plain or gzip-compressed, read as it streams. */
export function exportFileSource(path: string): DiffSource {
  return { label: path, batches: () => readExportFile(path) };
}

async function* readExportFile(path: string): AsyncGenerator<ScanItem[]> {
  let file: FileHandle | undefined;
  let compressed = false;
  try {
    file = await open(path, 'r');
    const head = Buffer.alloc(2);
    const { bytesRead } = await file.read(head, 0, 2, 0);
    compressed = bytesRead === 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
    const raw = file.createReadStream({ start: 0, highWaterMark: READ, autoClose: false });
    let stream: Readable = raw;
    if (compressed) {
      const { createGunzip } = await import('node:zlib');
      stream = raw.pipe(createGunzip({ chunkSize: READ }));
      raw.on('error', (error) => stream.destroy(error));
    }
    yield* scanItems(slices(stream as AsyncIterable<Buffer>));
  } catch (error) {
    if (error instanceof ScanError || error instanceof LkError) throw error;
    throw new DiffInputError(path, reasonOf(error as NodeJS.ErrnoException, compressed));
  } finally {
    await file?.close();
  }
}

async function* slices(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  for await (const chunk of chunks) for (let at = 0; at < chunk.length; at += SLICE) yield chunk.subarray(at, at + SLICE);
}

function reasonOf(error: NodeJS.ErrnoException, compressed: boolean): string {
  if (error.code === 'ENOENT') return 'no such file';
  if (error.code === 'EISDIR') return 'a folder, not an export file';
  if (error.code === 'EACCES') return 'permission denied';
  if (compressed && error.code === 'Z_BUF_ERROR') return 'the gzip file is truncated';
  if (compressed && error.code?.startsWith('Z_')) return `not a valid gzip file (${error.message})`;
  return error.message;
}
