import { mkdir, readdir, realpath, stat } from 'node:fs/promises';
import { compareSources, type DiffSource } from '../diff/compare.js';
import { countsSummary, diffSummary } from '../diff/model.js';
import { scanItems, type ScanItem } from '../util/json-scan.js';
import type { IoStreams } from '../output/terminal/io.js';
import { LkError } from '../util/errors.js';
import { Git, requireGit } from './git-command.js';
import { exportFiles, fileParts, type GitFile } from './git-files.js';

/**
 * `lk export --git DIR`: the export kept as a git repository, a commit per export that changed something.
 *
 * Nothing of the user's is touched before the commit exists: the files go into git's object store as blobs
 * (hash-object), the tree is made from them and the last commit's other files (mktree), the commit from the tree
 * (commit-tree), and only then is the branch moved (update-ref, one atomic rename) and the work tree brought to it
 * (read-tree -m -u, from the old tree to the new). A crash before update-ref leaves the repository at its last
 * commit with a clean work tree, and unreferenced objects that `git gc` removes. No remote is ever read or written.
 */

/** Author and committer when the user's git config names no one. */
const LK_IDENTITY = { name: 'lk', email: 'lk@localhost' };
/** Items per batch handed to the comparison. */
const BATCH = 1000;
/** The files lk diff reads from the last commit, by the member of the export each holds. */
const COMPARED = new Set(['library', 'entries', 'history', 'lists', 'reviews', 'account', 'profile']);

export interface GitTarget {
  git: Git;
  dir: string;
  /** The commit HEAD points at, or undefined (a folder to create, an empty one, a repository without commits). */
  head: string | undefined;
  /** DIR needs `git init` first. */
  create: boolean;
}

export interface ExportForGit {
  json: Record<string, unknown>;
  fetchedAt: number;
}

/** Before the export is fetched: git is there, and DIR is missing, empty, or a repository with nothing uncommitted. */
export async function prepareGitTarget(dir: string, env: NodeJS.ProcessEnv): Promise<GitTarget> {
  await requireGit(env);
  const git = new Git(dir, env);
  const state = await folderState(dir);
  if (state === 'not a folder') throw new LkError(`${dir} is not a folder; lk export --git keeps a git repository there`);
  if (state === 'empty' || state === 'missing') return { git, dir, head: undefined, create: true };
  const top = await git.attempt(['rev-parse', '--show-toplevel']);
  if (top.code !== 0 || (await realpath(top.stdout.trim())) !== (await realpath(dir))) {
    throw new LkError(
      `${dir} is not empty and is not a git repository; nothing was written`,
      1,
      'Name a new or empty folder (lk creates the repository there), or the top folder of a repository.',
    );
  }
  const status = await git.run(['status', '--porcelain', '--untracked-files=all']);
  if (status.trim() !== '') {
    throw new LkError(`${dir} has uncommitted changes; nothing was written`, 1, 'Commit or stash them first (git -C DIR status shows them).');
  }
  const head = await git.attempt(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  return { git, dir, head: head.code === 0 ? head.stdout.trim() : undefined, create: false };
}

/** Commits the export when it changes anything; says on stderr what it did. */
export async function commitExport(target: GitTarget, exported: ExportForGit, io: IoStreams): Promise<void> {
  const { git, dir } = target;
  if (target.create) {
    await mkdir(dir, { recursive: true });
    await git.run(['init', '--quiet']);
  }
  const files = exportFiles(exported.json);
  const previous = target.head === undefined ? [] : await treeEntries(git, target.head);
  // The message first: an export of another account is refused (by lk diff's check) before anything is written.
  const summary =
    target.head === undefined ? firstSummary(files) : diffSummary(await compareSources(lastCommitSource(target, previous), newExportSource(files)));

  const ours = new Map<string, string>();
  for (const file of files) ours.set(file.name, (await git.run(['hash-object', '-w', '--stdin'], { input: fileParts(file) })).trim());
  const entries = previous.filter((entry) => !ours.has(entry.name));
  for (const [name, blob] of ours) entries.push({ mode: '100644', type: 'blob', object: blob, name });
  const tree = await makeTree(git, entries);
  const oldTree = target.head === undefined ? await makeTree(git, []) : (await git.run(['rev-parse', `${target.head}^{tree}`])).trim();
  if (tree === oldTree) {
    io.info(`lk: ${dir}: nothing changed since the last commit (${target.head!.slice(0, 7)}); no commit made`);
    return;
  }
  const changedFiles = [...ours].filter(([name, blob]) => previous.find((entry) => entry.name === name)?.object !== blob).map(([name]) => name);
  const message = summary === 'no changes' ? `${changedFiles.join(', ')} changed` : summary;
  const commit = (
    await git.run(['commit-tree', tree, ...(target.head ? ['-p', target.head] : []), '-m', message], {
      env: { ...(await identityEnv(git)), ...dateEnv(exportTime(exported)) },
    })
  ).trim();
  // The only step the user's repository sees: HEAD's branch moves, if it is still where it was.
  await git.run(['update-ref', '-m', `lk export --git: ${message}`, 'HEAD', commit, target.head ?? '']);
  try {
    await git.run(['read-tree', '-m', '-u', oldTree, tree]);
  } catch (error) {
    // A file edited while the export was fetched: the commit stands, the edit is left alone.
    throw new LkError(
      `committed ${commit.slice(0, 7)} in ${dir}, but its files could not be brought to it (${(error as Error).message})`,
      1,
      `git -C ${dir} status shows what differs from the commit.`,
    );
  }
  io.info(`lk: committed ${commit.slice(0, 7)} in ${dir}: ${message}`);
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

interface TreeEntry {
  mode: string;
  type: string;
  object: string;
  name: string;
}

async function treeEntries(git: Git, commit: string): Promise<TreeEntry[]> {
  const listing = await git.run(['ls-tree', '-z', commit]);
  return listing
    .split('\0')
    .filter(Boolean)
    .map((line) => {
      const [meta, name] = [line.slice(0, line.indexOf('\t')), line.slice(line.indexOf('\t') + 1)];
      const [mode, type, object] = meta.split(' ') as [string, string, string];
      return { mode, type, object, name };
    });
}

async function makeTree(git: Git, entries: TreeEntry[]): Promise<string> {
  const lines = entries.map((entry) => `${entry.mode} ${entry.type} ${entry.object}\t${entry.name}\0`);
  return (await git.run(['mktree', '-z'], { input: lines })).trim();
}

/** The last commit's collection files, read as they stream, for lk diff's summary. */
function lastCommitSource(target: GitTarget, previous: TreeEntry[]): DiffSource {
  return {
    label: `${target.dir} (its last commit)`,
    async *batches() {
      yield [{ kind: 'array', key: 'library' }];
      for (const entry of previous) {
        const key = entry.name.replace(/\.json$/, '');
        if (entry.type !== 'blob' || !entry.name.endsWith('.json') || !COMPARED.has(key)) continue;
        const blob = target.git.stream(['cat-file', 'blob', entry.object]);
        if (key === 'account' || key === 'profile') {
          const chunks: Buffer[] = [];
          for await (const chunk of blob) chunks.push(chunk);
          yield [{ kind: 'value', key, text: Buffer.concat(chunks).toString('utf8').trimEnd() }];
        } else yield* scanItems(blob, key);
      }
    },
  };
}

/** The files about to be committed, item by item as they will be written (so unchanged items match as texts). */
function newExportSource(files: GitFile[]): DiffSource {
  return {
    label: 'the new export',
    async *batches() {
      yield [{ kind: 'array', key: 'library' }];
      for (const file of files) {
        const key = file.name.replace(/\.json$/, '');
        if (!COMPARED.has(key)) continue;
        if (!file.array) {
          yield [{ kind: 'value', key, text: file.items[0]! }];
          continue;
        }
        yield [{ kind: 'array', key }];
        // In batches, as an export file is read: the two sides then keep in step (src/diff/compare.ts).
        for (let start = 0; start < file.items.length; start += BATCH) {
          yield file.items.slice(start, start + BATCH).map((text): ScanItem => ({ kind: 'element', key, text }));
        }
      }
    },
  };
}

/** The first commit's message: everything is added, counted without comparing. */
function firstSummary(files: GitFile[]): string {
  const count = (...names: string[]) => files.find((file) => file.array && names.includes(file.collection!.toLowerCase()))?.items.length ?? 0;
  const added = (n: number) => ({ added: n, removed: 0, changed: 0 });
  return countsSummary({
    entries: added(count('library', 'entries')),
    history: { added: count('history'), removed: 0 },
    lists: added(count('lists')),
    reviews: added(count('reviews')),
  });
}

/** The user's git identity when their config names one; lk's otherwise (git would refuse to commit). */
async function identityEnv(git: Git): Promise<NodeJS.ProcessEnv> {
  const configured = async (key: string) => (await git.attempt(['config', key])).stdout.trim() !== '';
  if ((await configured('user.name')) && (await configured('user.email'))) return {};
  const { name, email } = LK_IDENTITY;
  return { GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_NAME: name, GIT_COMMITTER_EMAIL: email };
}

/** The export's own time when it states one (SPEC.md does not promise it), else when lk received it. */
function exportTime(exported: ExportForGit): number {
  const stated = exported.json.exportedAt;
  const ms = typeof stated === 'string' ? Date.parse(stated) : Number.NaN;
  return Number.isNaN(ms) ? exported.fetchedAt : ms;
}

function dateEnv(ms: number): NodeJS.ProcessEnv {
  const date = `@${Math.floor(ms / 1000)} +0000`;
  return { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
}
