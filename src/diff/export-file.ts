import { closeSync, constants, openSync, readSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { LkError } from '../util/errors.js';
import { DiffInputError, type DiffSource } from './compare.js';
import { scanItems, ScanError, type ScanItem } from '../util/json-scan.js';
import { createGunzip } from 'node:zlib';

/** gzip's magic number: a compressed export is told by its first bytes, whatever its name. */
const GZIP_MAGIC = [0x1f, 0x8b];
/** Bytes read at a time (fewer, larger reads cost less)… */
const READ = 1 << 20;
/** …and handed to the scanner at a time: small slices keep the two sides in step (compare.ts), fewer items wait. */
const SLICE = 64 * 1024;
/** How long a FIFO may go without a writer before it is refused (a pipe from <(lk export) has one at once). */
const WRITER_WAIT_MS = 300;
const WRITER_POLL_MS = 25;

/**
 * What is at an operand's path, looked at before anything is read (as the mirror's --db is, mirror-file.ts): a
 * folder, a device or a socket is one line naming it; a FIFO is opened without blocking and refused when no one
 * writes to it within 300 ms (opening it the usual way would block for ever). Returns the FIFO's opened stream.
 */
async function openOperand(path: string): Promise<Pipe | undefined> {
  let kind;
  try {
    kind = await stat(path);
  } catch (error) {
    throw new DiffInputError(path, reasonOf(error as NodeJS.ErrnoException, false));
  }
  if (kind.isDirectory()) throw new DiffInputError(path, 'a folder, not an export file');
  if (kind.isCharacterDevice() || kind.isBlockDevice()) throw new DiffInputError(path, 'a device, not an export file');
  if (kind.isSocket()) throw new DiffInputError(path, 'a socket, not an export file');
  return kind.isFIFO() ? openPipe(path) : undefined;
}

/**
 * A FIFO or a pipe (<(lk export) is /dev/fd/63), opened without blocking. A read that finds no writer returns at
 * once with nothing; one that finds a writer either has bytes or would wait. Bytes read while looking are kept.
 */
async function openPipe(path: string): Promise<Pipe> {
  // Raw descriptors, not a FileHandle: the socket takes the descriptor over, and closes it. Every call here returns
  // at once (O_NONBLOCK), so the synchronous forms block nothing.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const started = Date.now();
  const probe = Buffer.alloc(SLICE);
  try {
    for (;;) {
      let read: number;
      try {
        read = readSync(fd, probe, 0, probe.length, null);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
        read = -1; // a writer, nothing written yet
      }
      if (read !== 0) {
        const socket = new Socket({ fd, readable: true, writable: false });
        return withHead(read > 0 ? Buffer.from(probe.subarray(0, read)) : undefined, socket);
      }
      if (Date.now() - started >= WRITER_WAIT_MS) throw new DiffInputError(path, 'a FIFO (named pipe) no one writes to, not an export file');
      await new Promise((resolve) => setTimeout(resolve, WRITER_POLL_MS));
    }
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

type Pipe = AsyncIterable<Buffer> & { destroy(): void };

function withHead(head: Buffer | undefined, socket: Socket): Pipe {
  return {
    destroy: () => socket.destroy(),
    async *[Symbol.asyncIterator]() {
      try {
        if (head) yield head;
        for await (const chunk of socket) yield chunk as Buffer;
      } finally {
        socket.destroy();
      }
    },
  };
}

/** An operand opened: its source, and what to close when the comparison ends (however it ends). */
export interface OpenedExport {
  source: DiffSource;
  close(): void;
}

/**
 * An export file written by lk export, plain or gzip-compressed, read as it streams; `-` is stdin. What is at the
 * path is checked now (a refusal comes before the other side is read); a FIFO or a pipe is opened now too.
 */
export async function openExportFile(path: string, stdin?: NodeJS.ReadableStream): Promise<OpenedExport> {
  if (path === '-') return { source: { label: 'stdin', batches: () => readExport('stdin', async () => stdin ?? process.stdin) }, close: () => {} };
  const pipe = await openOperand(path);
  return {
    source: { label: path, batches: () => readExport(path, async () => pipe ?? fileChunks(path)) },
    close: () => pipe?.destroy(),
  };
}

async function* fileChunks(path: string): AsyncGenerator<Buffer> {
  const file = await open(path, 'r');
  try {
    yield* file.createReadStream({ highWaterMark: READ, autoClose: false }) as AsyncIterable<Buffer>;
  } finally {
    await file.close();
  }
}

/** The chunks of whatever is read, gunzipped when the first two bytes say gzip, scanned into an export's items. */
async function* readExport(label: string, chunksOf: () => Promise<AsyncIterable<Buffer | string>>): AsyncGenerator<ScanItem[]> {
  let compressed = false;
  let reader: AsyncIterator<Buffer | string> | undefined;
  try {
    reader = (await chunksOf())[Symbol.asyncIterator]();
    const first = await reader.next();
    const head = first.done ? Buffer.alloc(0) : Buffer.from(first.value);
    compressed = head.length >= 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
    const rest = reader;
    const raw = Readable.from(
      (async function* () {
        if (head.length > 0) yield head;
        for (let next = await rest.next(); !next.done; next = await rest.next()) yield Buffer.from(next.value);
      })(),
      { objectMode: false, highWaterMark: READ },
    );
    let stream: Readable = raw;
    if (compressed) {
      stream = raw.pipe(createGunzip({ chunkSize: READ }));
      raw.on('error', (error) => stream.destroy(error));
    }
    yield* scanItems(slices(stream as AsyncIterable<Buffer>));
  } catch (error) {
    if (error instanceof ScanError || error instanceof LkError) throw error;
    throw new DiffInputError(label, reasonOf(error as NodeJS.ErrnoException, compressed));
  } finally {
    await reader?.return?.();
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
