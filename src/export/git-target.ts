import { readdir, readFile, readlink, realpath, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { LkError } from '../util/errors.js';
import { processIsAlive } from '../util/atomic-file.js';
import { Git, requireGit } from './git-command.js';

/**
 * Where `lk export --git` commits, checked before the export is fetched: git is there, and DIR is missing or empty
 * (and not inside another repository, where a repository of its own would be nested), or the top of a repository
 * on a branch with nothing uncommitted. A run of lk that was stopped half way (its pending note, pending.ts's
 * words) is finished first, and a `.git/index.lock` it left is removed once no git runs in the repository.
 */

export interface GitTarget {
  git: Git;
  dir: string;
  /** The repository's git folder (absolute); undefined until it exists. */
  gitDir: string | undefined;
  /** The commit HEAD points at, or undefined (a folder to create, an empty one, a repository without commits). */
  head: string | undefined;
  /** DIR needs `git init` first. */
  create: boolean;
}

/** What lk notes in the git folder between moving the branch and bringing the work tree to it. */
export const PENDING_NOTE = 'lk-export-pending';

export interface PendingNote {
  pid: number;
  /** The commit the work tree was at (empty: none yet). */
  from: string;
  /** The commit the branch was moved to. */
  to: string;
}

export async function prepareGitTarget(dir: string, env: NodeJS.ProcessEnv): Promise<GitTarget> {
  await requireGit(env);
  const git = new Git(dir, env);
  const state = await folderState(dir);
  if (state === 'not a folder') throw new LkError(`${dir} is not a folder; lk export --git keeps a git repository there`);
  if (state === 'empty' || state === 'missing') {
    await refuseNested(dir, env);
    return { git, dir, gitDir: undefined, head: undefined, create: true };
  }
  const top = await git.attempt(['rev-parse', '--show-toplevel']);
  if (top.code !== 0 || (await realpath(top.stdout.trim())) !== (await realpath(dir))) {
    throw new LkError(
      `${dir} is not empty and is not a git repository; nothing was written`,
      1,
      'Name a new or empty folder (lk creates the repository there), or the top folder of a repository.',
    );
  }
  await git.filtersOff();
  const gitDir = (await git.run(['rev-parse', '--absolute-git-dir'])).trim();
  await finishStoppedRun(git, dir, gitDir);
  if ((await git.attempt(['symbolic-ref', '--quiet', 'HEAD'])).code !== 0) {
    // The branch committed to last is most likely the one lk keeps the backups on.
    const latest = await git.attempt(['for-each-ref', '--count=1', '--sort=-committerdate', '--format=%(refname:short)', 'refs/heads']);
    throw new LkError(
      `${dir} has a detached HEAD (no branch checked out); nothing was written`,
      1,
      `A commit there would belong to no branch. Check out the branch lk commits to: git -C ${dir} switch ${latest.stdout.trim() || 'BRANCH'}`,
    );
  }
  const status = await git.run(['status', '--porcelain', '--untracked-files=all']);
  if (status.trim() !== '') {
    throw new LkError(`${dir} has uncommitted changes; nothing was written`, 1, `Commit or stash them first (git -C ${dir} status shows them).`);
  }
  const head = await git.attempt(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  return { git, dir, gitDir, head: head.code === 0 ? head.stdout.trim() : undefined, create: false };
}

type FolderState = 'missing' | 'empty' | 'not empty' | 'not a folder';

async function folderState(dir: string): Promise<FolderState> {
  try {
    if (!(await stat(dir)).isDirectory()) return 'not a folder';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
  return (await readdir(dir)).length === 0 ? 'empty' : 'not empty';
}

/** A new repository inside another one would be nested in it (the outer one's `git add` then fails on it). */
async function refuseNested(dir: string, env: NodeJS.ProcessEnv): Promise<void> {
  let existing = resolve(dir);
  while ((await folderState(existing)) === 'missing' && dirname(existing) !== existing) existing = dirname(existing);
  const outer = await new Git(existing, env).attempt(['rev-parse', '--show-toplevel']);
  if (outer.code !== 0) return;
  throw new LkError(
    `${dir} is inside the git repository ${outer.stdout.trim()}; a repository there would be nested in it; nothing was written`,
    1,
    'Name a folder outside any repository for the backups (they are a repository of their own).',
  );
}

/**
 * A run stopped after moving the branch (its note names the commits) is finished: the index and the work tree are
 * brought to the branch's commit, lk's files only. A note whose branch did not move says nothing was touched. A
 * `.git/index.lock` is removed only when lk's note shows lk was at work and no git runs in the repository.
 */
async function finishStoppedRun(git: Git, dir: string, gitDir: string): Promise<void> {
  const note = await readNote(gitDir);
  const lock = join(gitDir, 'index.lock');
  const locked = await exists(lock);
  if (note && processIsAlive(note.pid) && note.pid !== process.pid) {
    throw new LkError(`another lk export --git (pid ${note.pid}) is writing ${dir}; nothing was written`, 1, 'Let it finish, then run again.');
  }
  if (locked) {
    const gits = note ? await gitsRunningIn(dir, gitDir) : undefined;
    if (gits === undefined || gits.length > 0) {
      throw new LkError(
        `${lock} exists: a git command is running in ${dir}, or one was stopped; nothing was written`,
        1,
        gits && gits.length > 0
          ? `git runs there now (pid ${gits.join(', ')}): let it finish, then run again.`
          : `If no git runs in ${dir}, remove it: rm ${lock}`,
      );
    }
    await rm(lock, { force: true });
  }
  if (!note) return;
  const head = (await git.attempt(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'])).stdout.trim();
  if (head === note.to) {
    // The branch moved; the index and the work tree may not have: bring lk's files to the commit.
    await git.run(['read-tree', note.to]);
    const changed =
      note.from === ''
        ? await git.run(['ls-tree', '-z', '--name-only', note.to])
        : await git.run(['diff-tree', '-z', '--name-only', '-r', note.from, note.to]);
    const names = changed.split('\0').filter(Boolean);
    const present = names.length === 0 ? '' : await git.run(['ls-tree', '-z', '--name-only', note.to, '--', ...names]);
    const kept = new Set(present.split('\0').filter(Boolean));
    for (const name of names) if (!kept.has(name)) await rm(join(dir, name), { force: true });
    if (kept.size > 0) await git.run(['checkout-index', '--force', '-z', '--stdin'], { input: [...kept].map((name) => `${name}\0`) });
    await git.attempt(['update-index', '-q', '--refresh']);
  }
  await rm(join(gitDir, PENDING_NOTE), { force: true });
}

async function readNote(gitDir: string): Promise<PendingNote | undefined> {
  try {
    const note = JSON.parse(await readFile(join(gitDir, PENDING_NOTE), 'utf8')) as Partial<PendingNote>;
    if (typeof note.pid === 'number' && typeof note.from === 'string' && typeof note.to === 'string') return note as PendingNote;
  } catch {
    // none, or cut short before its rename (it is written whole, then renamed): the branch did not move
  }
  return undefined;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The pids of git processes working in the repository (their folder is DIR, inside it, or its git folder), read
 * from /proc; undefined where there is no /proc to read (then nobody can say, and the lock is left alone).
 */
async function gitsRunningIn(dir: string, gitDir: string): Promise<number[] | undefined> {
  let pids: string[];
  try {
    pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  const roots = [await realpath(dir), await realpath(gitDir)];
  const found: number[] = [];
  for (const pid of pids) {
    try {
      const name = (await readFile(`/proc/${pid}/comm`, 'utf8')).trim();
      if (!name.startsWith('git')) continue;
      const cwd = await readlink(`/proc/${pid}/cwd`);
      if (roots.some((root) => cwd === root || cwd.startsWith(`${root}/`))) found.push(Number(pid));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}
