import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/**
 * Finding the programs lk starts (`sh` for a shell alias, extensions `lk-NAME`, `apprise`, `git`) on PATH, one way
 * for all of them: only absolute folders are searched. An empty entry (`PATH=:/usr/bin`, a trailing `:`) or a
 * relative one means the current folder to the shell, and on a shared machine the current folder may be anyone's
 * (/tmp, a clone): lk never runs `./sh` from it. Each caller then starts the absolute path found, never the bare
 * name, which Node's spawn would look up again with the shell's rules.
 */
export function pathFolders(env: NodeJS.ProcessEnv): string[] {
  return (env.PATH ?? '').split(delimiter).filter((folder) => folder !== '' && isAbsolute(folder));
}

/** A regular file this process may execute. */
export function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The absolute path of the first executable `name` in PATH's absolute folders, or undefined. */
export function findExecutable(name: string, env: NodeJS.ProcessEnv): string | undefined {
  if (name === '' || name.includes('/')) return undefined;
  for (const folder of pathFolders(env)) {
    const file = join(folder, name);
    if (isExecutableFile(file)) return file;
  }
  return undefined;
}
