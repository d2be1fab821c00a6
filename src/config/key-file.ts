import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { AuthError } from '../util/errors.js';
import { readableByOthersWarning } from '../util/file-kind.js';
import { MAX_KEY_INPUT_BYTES } from './key.js';

/** The key LK_API_KEY_FILE names, trimmed, with a warning when others may read the file. */
export function keyFromFile(file: string): { key: string; warning?: string } {
  const { text, mode } = readKeyFile(file);
  const key = text.trim();
  if (!key) throw new AuthError(`LK_API_KEY_FILE ${file} is empty`);
  const warning = readableByOthersWarning('the key file', file, mode);
  return { key, ...(warning ? { warning } : {}) };
}

/**
 * LK_API_KEY_FILE, read up to a few KB: a key is 52 bytes, and a path to something endless (a device, a FIFO, a log)
 * must fail at once instead of filling memory.
 */
/** "cannot read the key file that LK_API_KEY_FILE names, /run/secrets/lk: no such file" (exit 3), not a bare ENOENT. */
function keyFileError(file: string, error: unknown): AuthError {
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a folder' : (code ?? 'unreadable');
  return new AuthError(
    `cannot read the key file that LK_API_KEY_FILE names, ${file}: ${why}`,
    'Point LK_API_KEY_FILE at a file holding only the key, or unset it.',
  );
}

/** The file's text, and its permission bits (from the same open file: no race with a chmod in between). */
function readKeyFile(file: string): { text: string; mode: number } {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    throw keyFileError(file, error);
  }
  try {
    const buffer = Buffer.alloc(MAX_KEY_INPUT_BYTES + 1);
    let size = 0;
    while (size < buffer.length) {
      const read = readSync(fd, buffer, size, buffer.length - size, null);
      if (read === 0) break;
      size += read;
    }
    if (size > MAX_KEY_INPUT_BYTES)
      throw new AuthError(`LK_API_KEY_FILE ${file} holds more than ${MAX_KEY_INPUT_BYTES / 1024} KiB: that is not a key file`);
    return { text: buffer.subarray(0, size).toString('utf8'), mode: fstatSync(fd).mode & 0o777 };
  } catch (error) {
    if (error instanceof AuthError) throw error;
    throw keyFileError(file, error);
  } finally {
    closeSync(fd);
  }
}
