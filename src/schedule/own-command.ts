import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isSea } from 'node:sea';

/**
 * How a scheduled job starts this lk, by absolute paths (cron's PATH and systemd's are not the shell's): the single
 * file is its own program; otherwise this Node and lk's entry script, bin/lk.cjs of the package this module is in
 * (found upwards from here: dist/cli.cjs in a build, src/schedule/ in the sources).
 */
export function ownCommand(): string[] {
  if (isSea()) return [process.execPath];
  let folder = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const entry = join(folder, 'bin', 'lk.cjs');
    if (existsSync(entry)) return [process.execPath, entry];
    const up = dirname(folder);
    if (up === folder) throw new Error('lk cannot find its own entry script (bin/lk.cjs) to schedule');
    folder = up;
  }
}
