import { lstatSync, statSync, type Stats } from 'node:fs';

/**
 * Folders lk keeps secrets and backups in, checked as ssh checks ~/.ssh: a folder someone else owns, or that others
 * may write into, can hold anything they planted (a config naming their server, a symlink, a forged cached export),
 * so it is not trusted. Returns what is wrong, or undefined when the folder is fine or does not exist yet.
 *
 * `follow`: the folder the user named may be a symlink (a dotfiles setup), checked at its target; folders lk creates
 * itself inside it must be real folders.
 */
export function folderProblem(path: string, follow = true): string | undefined {
  let stats: Stats;
  try {
    stats = follow ? statSync(path) : lstatSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? undefined : `${path} cannot be read (${code ?? 'error'})`;
  }
  if (stats.isSymbolicLink()) return `${path} is a symbolic link`;
  if (!stats.isDirectory()) return `${path} is not a folder`;
  return ownershipProblem(path, stats);
}

/** A file or folder someone else owns, or writable by others (group or world). */
export function ownershipProblem(path: string, stats: Stats): string | undefined {
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid && stats.uid !== 0) return `${path} belongs to another user (uid ${stats.uid})`;
  if (stats.mode & 0o022) return `${path} is writable by other users (mode ${(stats.mode & 0o7777).toString(8).padStart(4, '0')})`;
  return undefined;
}
