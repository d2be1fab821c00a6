import { randomBytes } from 'node:crypto';
import {
  close,
  closeSync,
  fsync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFile,
  writeFileSync,
} from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import { basename, dirname, join } from 'node:path';
import { onInterrupt } from './interrupt.js';

/**
 * Files that appear whole or not at all: everything is written to a temporary name in the same folder (so the
 * rename stays on one file system), flushed to disk, then renamed over the final name. A failed or interrupted run
 * leaves the folder as it was.
 */

export interface AtomicOptions {
  /** Permission bits of new files (folders get the same bits plus x). Default 0600: exports are private data. */
  mode?: number;
}

/** `.name.<pid>-<random>.tmp`: hidden, unique per process and attempt, never mistaken for an export. */
export function temporaryName(finalPath: string): string {
  return join(dirname(finalPath), `.${basename(finalPath)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
}

/** temporaryName's pattern: `.name.<pid>-<8 hex>.tmp`. */
const TEMPORARY_NAME = /^\..+\.(\d+)-[0-9a-f]{8}\.tmp$/;
/** A temporary file untouched this long was left by a run killed mid-write (SIGKILL, a power cut). */
export const STALE_TEMPORARY_MS = 10 * 60 * 1000;
const swept = new Set<string>();

/**
 * Removes what killed runs left in `dir`: lk's own temporary names only, older than STALE_TEMPORARY_MS, of a process
 * that is gone. Once per folder and process; never fails the write that asked for it.
 */
export function sweepStaleTemporaries(dir: string, now = Date.now()): void {
  if (swept.has(dir)) return;
  swept.add(dir);
  try {
    for (const name of readdirSync(dir)) {
      const match = TEMPORARY_NAME.exec(name);
      if (!match) continue;
      const pid = Number(match[1]);
      const path = join(dir, name);
      const stats = lstatSync(path);
      if (now - stats.mtimeMs < STALE_TEMPORARY_MS || pid === process.pid || processIsAlive(pid)) continue;
      rmSync(path, { recursive: stats.isDirectory(), force: true });
    }
  } catch {
    // a folder we cannot list holds nothing we could remove
  }
}

/** Whether a process of that pid runs on this machine (EPERM: alive, but someone else's). */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Creates the temporary file (exclusive: a file or link planted at the name makes this fail instead of being
 * followed) and registers its removal on interrupt, in one synchronous step. Synchronous on purpose: an asynchronous
 * open() runs on libuv's thread pool and can create the file after a SIGTERM's handler has run the cleanups, while
 * the process exits; a signal's handler runs only between turns of the event loop, so it finds neither or both.
 */
export function createTemporaryFile(temp: string, mode: number): { fd: number; forget: () => void } {
  const fd = openSync(temp, 'wx', mode);
  return { fd, forget: onInterrupt(() => rmSync(temp, { force: true })) };
}

/** createTemporaryFile's rule for a temporary folder. */
function createTemporaryFolder(temp: string, mode: number): () => void {
  mkdirSync(temp, { mode });
  return onInterrupt(() => rmSync(temp, { recursive: true, force: true }));
}

/** Writes `data` to `path` atomically. */
export async function writeFileAtomic(path: string, data: string | Uint8Array, options: AtomicOptions = {}): Promise<void> {
  sweepStaleTemporaries(dirname(path));
  const temp = temporaryName(path);
  let forget: () => void = () => undefined;
  try {
    forget = await writeNewFile(temp, data, options.mode ?? 0o600);
    await rename(temp, path);
    syncFolder(dirname(path));
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  } finally {
    forget();
  }
}

/**
 * A small state file that other lk processes read (a rate-limit budget, whose key an account is), written as a
 * courtesy: never fails the command, returns whether it was written. Temp file + rename, so a reader sees the old
 * content or the new, never half; no fsync, since a write lost in a crash costs a request, not data.
 */
export function replaceStateFileSync(path: string, text: string): boolean {
  const temp = temporaryName(path);
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    sweepStaleTemporaries(dirname(path));
    writeFileSync(temp, text, { mode: 0o600 });
    renameSync(temp, path);
    return true;
  } catch {
    rmSync(temp, { force: true });
    return false;
  }
}

export interface FolderFile {
  name: string;
  data: string | Uint8Array;
}

/**
 * Writes a folder of files atomically: all of them into a hidden temporary folder next to `path`, then one rename.
 * An existing folder at `path` (the same export written again) is swapped out and removed only once the new one is
 * in place.
 */
export async function writeFolderAtomic(path: string, files: FolderFile[], options: AtomicOptions = {}): Promise<void> {
  const mode = options.mode ?? 0o600;
  sweepStaleTemporaries(dirname(path));
  const temp = temporaryName(path);
  const previous = temporaryName(path);
  let forget: () => void = () => undefined;
  let movedAside = false;
  try {
    forget = createTemporaryFolder(temp, mode | ((mode & 0o444) >> 2)); // x wherever r: a folder must be searchable
    // The files inside are removed with their folder.
    for (const file of files) (await writeNewFile(join(temp, file.name), file.data, mode))();
    syncFolder(temp);
    try {
      await rename(temp, path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
      await rename(path, previous);
      movedAside = true;
      await rename(temp, path);
    }
    syncFolder(dirname(path));
  } catch (error) {
    if (movedAside) await rename(previous, path).catch(() => undefined);
    movedAside = false;
    await rm(temp, { recursive: true, force: true });
    throw error;
  } finally {
    forget();
    if (movedAside) await rm(previous, { recursive: true, force: true });
  }
}

/** A new temporary file holding `data`, flushed; returns the cleanup registration's release. */
async function writeNewFile(path: string, data: string | Uint8Array, mode: number): Promise<() => void> {
  const { fd, forget } = createTemporaryFile(path, mode);
  try {
    await promisify(writeFile)(fd, data);
    await promisify(fsync)(fd);
  } finally {
    await promisify(close)(fd);
  }
  return forget;
}

/** Makes a rename durable across a power cut; best effort, as some file systems refuse fsync on folders. */
export function syncFolder(path: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    fsyncSync(fd);
  } catch {
    // not supported here: the rename is still atomic, only its durability is up to the OS
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
