import type { Stats } from 'node:fs';

/**
 * What stands at a path that should be a file someone wrote: a folder, FIFO, socket or device is named, so the
 * caller refuses it in one line instead of blocking on a FIFO with no writer or reading a device without end.
 */
export function notAFile(stats: Stats): string | undefined {
  if (stats.isDirectory()) return 'is a folder, not a file';
  if (stats.isFIFO()) return 'is a FIFO (named pipe), not a file';
  if (stats.isSocket()) return 'is a socket, not a file';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'is a device, not a file';
  return undefined;
}

/** Like ssh: a file holding a secret that others can read deserves a warning (`what`: "the key file"). */
export function readableByOthersWarning(what: string, file: string, mode: number): string | undefined {
  if ((mode & 0o077) === 0) return undefined;
  return `lk: warning: ${what} ${file} is readable by others (mode ${(mode & 0o777).toString(8).padStart(4, '0')}); run: chmod 600 ${file}`;
}
