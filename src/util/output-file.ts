import { close, createWriteStream, fchmod, fstatSync, fsync, open, type Stats } from 'node:fs';
import { lstat, mkdir, readlink, realpath, rename, rm, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { dirname, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { once } from 'node:events';
import { createTemporaryFile, sweepStaleTemporaries, syncFolder, temporaryName } from './atomic-file.js';
import { LkError } from './errors.js';

/**
 * A file the user named with -o, for every command that takes it (export, calendar, listings). What sits at the
 * path decides how it is written:
 * - a regular file, or nothing yet: a temporary file in the same folder, flushed, then renamed over it, so the file
 *   appears whole or not at all. A replaced file keeps its permissions; a new one is private (0600), as what lk
 *   writes is personal data. A missing folder is created (that folder only, 0700, as `export --output-dir` does).
 * - a symbolic link: followed, and its target replaced the same way (the link stays a link).
 * - anything else (a FIFO, a terminal or other device, a process substitution's /dev/fd/63): written through, as a
 *   shell redirection would; replacing it by a regular file would break it for every later program.
 * - this process's own stdout or stderr (/dev/stdout, /dev/fd/2, /proc/self/fd/1, a link to one): written to that
 *   stream, since a socket (journald's stdout, a Node parent's pipes) cannot be opened by name at all.
 */
export interface OutputFile {
  /** The path as the user gave it, for messages. */
  readonly path: string;
  /** True when the data goes straight into a FIFO or device, not through a temporary file. */
  readonly through: boolean;
  readonly stream: Writable;
  /** Makes the written data the file's content (rename), or finishes the write-through. */
  commit(): Promise<void>;
  /** Leaves whatever was at the path untouched (a write-through has already written what it wrote). */
  abort(): Promise<void>;
}

/** The run's own output streams; a real process's carry their file descriptor (`fd`), fakes do not. */
export interface OwnStreams {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export async function openOutputFile(path: string, own: OwnStreams): Promise<OutputFile> {
  return failingAs(`cannot write ${path}`, async () => {
    const existing = await stat(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (existing?.isDirectory()) throw new LkError(`cannot write ${path}: it is a folder`);
    const ownStream = existing ? sameFileAs(existing, [own.stdout, own.stderr]) : undefined;
    if (ownStream) return writeToOwnStream(path, ownStream);
    if (existing && !existing.isFile()) return writeThrough(path, await openFd(path, 'w', 0o600));
    const target = existing ? await realpath(path) : await danglingTarget(path);
    await createFolder(dirname(target));
    return replaceAtomically(path, target, existing ? existing.mode & 0o7777 : 0o600);
  });
}

/** Writes `data` to the path the user named, by the rules of openOutputFile. */
export async function replaceFile(path: string, data: string | Uint8Array, own: OwnStreams): Promise<void> {
  const file = await openOutputFile(path, own);
  try {
    await failingAs(`cannot write ${path}`, async () => {
      if (!file.stream.write(data)) await once(file.stream, 'drain');
    });
    await file.commit();
  } catch (error) {
    await file.abort();
    throw error;
  }
}

/** Where a new file goes: the path itself, or where a dangling symbolic link points (links followed to the end). */
async function danglingTarget(path: string): Promise<string> {
  let current = resolve(path);
  for (let hops = 0; hops < 40; hops++) {
    const info = await lstat(current).catch(() => undefined);
    if (!info?.isSymbolicLink()) return current;
    current = resolve(dirname(current), await readlink(current));
  }
  throw new LkError(`cannot write ${path}: too many levels of symbolic links`);
}

/** The folder itself, not its parents: a typo in a crontab should fail, not grow a tree somewhere. */
export async function createFolder(dir: string): Promise<void> {
  try {
    await mkdir(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

async function replaceAtomically(path: string, target: string, mode: number): Promise<OutputFile> {
  // What a killed run (SIGKILL, a power cut) left behind next to the file, as writeFileAtomic does.
  sweepStaleTemporaries(dirname(target));
  const temp = temporaryName(target);
  const { fd, forget } = createTemporaryFile(temp, mode);
  const stream = createWriteStream('', { fd, autoClose: false });
  let settled = false;
  let closed = false;
  const closeOnce = async () => {
    if (closed) return;
    closed = true;
    await closeFd(fd);
  };
  return {
    path,
    through: false,
    stream,
    async commit() {
      if (settled) return;
      settled = true;
      try {
        await failingAs(`cannot write ${path}`, async () => {
          await endStream(stream);
          await fsyncFd(fd);
          // open() applied the umask; the replaced file's bits (or 0600) are meant exactly.
          await fchmodFd(fd, mode);
          await closeOnce();
          await rename(temp, target);
          syncFolder(dirname(target));
        });
      } catch (error) {
        await closeOnce().catch(() => undefined);
        await rm(temp, { force: true });
        throw error;
      } finally {
        forget();
      }
    },
    async abort() {
      if (settled) return;
      settled = true;
      // destroy() closes the fd itself (autoClose or not): closing it again raced with that close, an EBADF
      // thrown uncaught on Node 22+, and at worst the close of a number another open had just been given.
      closed = true;
      await destroyStream(stream);
      await rm(temp, { force: true });
      forget();
    },
  };
}

function writeThrough(path: string, fd: number): OutputFile {
  const stream = createWriteStream('', { fd, autoClose: false });
  let settled = false;
  const finish = async (flush: boolean) => {
    if (settled) return;
    settled = true;
    try {
      if (flush) await failingAs(`cannot write ${path}`, () => endStream(stream));
    } finally {
      // destroy() closes the fd (see abort above); after a flush the fd is still ours to close.
      if (flush) await closeFd(fd).catch(() => undefined);
      else await destroyStream(stream);
    }
  };
  return { path, through: true, stream, commit: () => finish(true), abort: () => finish(false) };
}

/** The stream among `streams` whose descriptor is the file `target` (same device and inode), if any. */
function sameFileAs(target: Stats, streams: NodeJS.WritableStream[]): NodeJS.WritableStream | undefined {
  return streams.find((stream) => {
    const fd = (stream as { fd?: unknown }).fd;
    if (typeof fd !== 'number') return false;
    try {
      const info = fstatSync(fd);
      return info.dev === target.dev && info.ino === target.ino;
    } catch {
      return false;
    }
  });
}

/** Written into the run's own stream, which stays open for the rest of the run: commit waits for the data to leave. */
function writeToOwnStream(path: string, own: NodeJS.WritableStream): OutputFile {
  const stream = new Writable({
    write: (chunk: Buffer, _encoding, done) => void own.write(chunk, (error) => done(error ?? undefined)),
  });
  let settled = false;
  return {
    path,
    through: true,
    stream,
    async commit() {
      if (settled) return;
      settled = true;
      await failingAs(`cannot write ${path}`, () => endStream(stream));
    },
    async abort() {
      if (settled) return;
      settled = true;
      await destroyStream(stream);
    },
  };
}

const openFd = promisify(open) as (path: string, flags: string, mode: number) => Promise<number>;
const fsyncFd = promisify(fsync);
const fchmodFd = promisify(fchmod);
const closeFd = promisify(close);

/** Destroys a stream made with `fd`, which closes that fd, and waits until it has. */
async function destroyStream(stream: Writable): Promise<void> {
  if (stream.closed) return;
  const closedEvent = once(stream, 'close').catch(() => undefined);
  stream.destroy();
  await closedEvent;
}

async function endStream(stream: Writable): Promise<void> {
  if (stream.errored) throw stream.errored;
  const finished = once(stream, 'finish');
  stream.end();
  await finished;
}

/** File-system errors as one clear line (exit 1) instead of an "unexpected error". */
export async function failingAs<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof LkError) throw error;
    // "ENOSPC: no space left on device, write" → "no space left on device" (the temporary name is no one's business)
    const message = (error as Error).message;
    throw new LkError(`${what}: ${/^[A-Z]+: ([^,]+)/.exec(message)?.[1] ?? message}`);
  }
}
