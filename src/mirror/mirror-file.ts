import { closeSync, constants, lstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { LkError } from '../util/errors.js';
import { notAFile } from '../util/file-kind.js';

/**
 * What is at a mirror's path, looked at before SQLite opens it: SQLite would block for ever opening a FIFO, take a
 * 0-byte file for an empty database, and say only "file is not a database" (no path, no advice) of anything else.
 * Each refusal is one line naming the file, exit 1, with what to do.
 */

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

const MAKE_ONE = 'Point --db at a mirror lk sync wrote, or run lk sync to make one.';

function refuse(path: string, what: string, hint = MAKE_ONE): LkError {
  return new LkError(`the mirror ${path} ${what}`, 1, hint);
}

/** The file's state, or undefined when nothing is there (a dangling link is refused: it names a file that is gone). */
function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw refuse(path, `cannot be read: ${(error as Error).message}`);
    let link: Stats | undefined;
    try {
      link = lstatSync(path);
    } catch {
      return undefined;
    }
    if (link.isSymbolicLink())
      throw refuse(path, 'is a link to a file that does not exist', 'Fix or remove the link, or point --db at the mirror itself.');
    return undefined;
  }
}

/** The first 16 bytes; read without blocking (the file is known to be a regular one by then). */
function header(path: string): Buffer {
  const bytes = Buffer.alloc(SQLITE_HEADER.length);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM')
      throw refuse(
        path,
        'cannot be read: permission denied',
        'It belongs to another user: ask them, or sync a mirror of your own with lk sync --db FILE.',
      );
    throw refuse(path, `cannot be read: ${(error as Error).message}`);
  }
  try {
    const read = readSync(fd, bytes, 0, bytes.length, 0);
    return bytes.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/**
 * Throws unless `path` holds something SQLite can open as a mirror: a regular file that starts as an SQLite database
 * does. Returns false when there is nothing there at all (the caller decides: a reader refuses, lk sync creates it)
 * or, with `emptyIsNew`, when the file is empty (lk sync fills it).
 */
export function checkMirrorFile(path: string, { emptyIsNew = false } = {}): boolean {
  const stats = statOf(path);
  if (stats === undefined) return false;
  const kind = notAFile(stats);
  if (kind !== undefined) throw refuse(path, kind);
  if (stats.size === 0) {
    if (emptyIsNew) return false;
    throw refuse(path, 'is empty (0 bytes): not an lk mirror', 'Remove it and run lk sync (with --db FILE) to make the mirror.');
  }
  if (!header(path).equals(SQLITE_HEADER))
    throw refuse(
      path,
      'is not an SQLite database (nor an lk mirror)',
      'Point --db at a mirror lk sync wrote; lk sync does not write over another file.',
    );
  return true;
}

/**
 * Which file is at a path now, as device and inode, or undefined when none is (or it cannot be looked at): a reader
 * that holds a mirror open sees from it that another file stands at the path (deleted and synced anew, renamed over).
 */
export function fileIdAt(path: string): string | undefined {
  try {
    const { dev, ino } = statSync(path);
    return `${dev}:${ino}`;
  } catch {
    return undefined;
  }
}

/** The refusal of an SQLite file that has none of a mirror's tables. */
export function notAMirror(path: string): LkError {
  return refuse(path, 'is an SQLite database but not an lk mirror (it has no entries table)', 'Point --db at a mirror lk sync wrote.');
}
