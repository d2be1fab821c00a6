import { chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { compareSources, type DiffSource } from '../diff/compare.js';
import { countsSummary, diffSummary, NO_CHANGES } from '../diff/model.js';
import { DuplicateIds } from '../diff/duplicate-ids.js';
import { scanItems, type ScanItem } from '../util/json-scan.js';
import { isObject } from '../util/json-value.js';
import { text } from '../items/values.js';
import { ownerOfExport } from '../items/account.js';
import type { IoStreams } from '../output/terminal/io.js';
import { LkError } from '../util/errors.js';
import type { Git } from './git-command.js';
import { exportFiles, fileParts, type GitFile } from './git-files.js';
import { PENDING_NOTE, type GitTarget, type PendingNote } from './git-target.js';

export { prepareGitTarget } from './git-target.js';

/**
 * `lk export --git DIR`: the export kept as a git repository, a commit per export that changed something.
 *
 * Nothing of the user's is touched before the commit exists: the files go into git's object store as blobs
 * (hash-object, no filters), the tree is made from them and the last commit's other files (mktree: no index at
 * all), the commit from the tree (commit-tree); then a note of the move is left in the git folder, the branch is
 * moved (update-ref, one atomic rename) and the index and work tree brought to it (read-tree -m -u, from the old
 * tree to the new), and the note removed. A stop before update-ref leaves the repository at its last commit with a
 * clean work tree (and unreferenced objects that `git gc` removes); a stop after it leaves the note, and the next
 * run finishes the checkout before anything else (git-target.ts). No remote is ever read or written.
 */

/** Author and committer when the user's git config names no one. */
const LK_IDENTITY = { name: 'lk', email: 'lk@localhost' };
/** Items per batch handed to the comparison. */
const BATCH = 1000;
/** The files lk diff reads from the last commit, by the member of the export each holds. */
const COMPARED = new Set(['library', 'entries', 'history', 'lists', 'reviews', 'notifications', 'achievements', 'account', 'profile']);
/** The files that are a single value rather than a collection. */
const VALUES = new Set(['account', 'profile']);

export interface ExportForGit {
  json: Record<string, unknown>;
  fetchedAt: number;
}

/**
 * The steps of a commit, in order: `LK_TEST_GIT_STOP_AFTER=<step>` (for tests only: test/e2e/export-git-steps.test.ts)
 * kills lk with SIGKILL right after that step, as a power cut or an OOM kill would, to show that every stop leaves a
 * repository the next run goes on from.
 */
export const GIT_STEPS = ['init', 'objects', 'tree', 'commit', 'note', 'branch', 'checkout'] as const;
type GitStep = (typeof GIT_STEPS)[number];

function stepDone(step: GitStep, env: NodeJS.ProcessEnv): void {
  if (env.LK_TEST_GIT_STOP_AFTER === step) process.kill(process.pid, 'SIGKILL');
}

/** Commits the export when it changes anything; says on stderr what it did. */
export async function commitExport(target: GitTarget, exported: ExportForGit, io: IoStreams, env: NodeJS.ProcessEnv = {}): Promise<void> {
  const { git, dir } = target;
  const previous = target.head === undefined ? [] : await treeEntries(git, target.head);
  await refuseAnotherAccount(target, previous, exported.json);
  const files = exportFiles(exported.json);
  const duplicates = duplicateIds(exported.json);
  if (duplicates) io.warn(`lk: warning: the export has items of the same id (${duplicates}); all of them are kept`);
  if (target.create) {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    // Objects, refs and the index readable by the user alone (git's core.sharedRepository = 0600).
    await git.run(['init', '--quiet', '--shared=0600']);
    await git.filtersOff();
    target.gitDir = (await git.run(['rev-parse', '--absolute-git-dir'])).trim();
    stepDone('init', env);
  }
  // The message first: an export of another account is refused (by lk diff's check) before anything is written.
  const comparison = target.head === undefined ? undefined : await compareSources(lastCommitSource(target, previous), newExportSource(files));
  const summary = comparison === undefined ? firstSummary(files) : diffSummary(comparison.diff);

  const ours = new Map<string, string>();
  for (const file of files) {
    ours.set(file.name, (await git.run(['hash-object', '-w', '--no-filters', '--stdin'], { input: fileParts(file) })).trim());
  }
  stepDone('objects', env);
  // lk's files are the top-level .json files: one the new export lacks is its collection gone, deleted with it.
  const gone = previous.filter((entry) => isLkFile(entry) && !ours.has(entry.name)).map((entry) => entry.name);
  const entries = previous.filter((entry) => !ours.has(entry.name) && !gone.includes(entry.name));
  for (const [name, blob] of ours) entries.push({ mode: '100644', type: 'blob', object: blob, name });
  const tree = await makeTree(git, entries);
  const oldTree = target.head === undefined ? await makeTree(git, []) : (await git.run(['rev-parse', `${target.head}^{tree}`])).trim();
  stepDone('tree', env);
  if (tree === oldTree) {
    await privateFiles(dir, [...ours.keys()]);
    io.info(`lk: ${dir}: nothing changed since the last commit (${target.head!.slice(0, 7)}); no commit made`);
    return;
  }
  const changedFiles = [...ours].filter(([name, blob]) => previous.find((entry) => entry.name === name)?.object !== blob).map(([name]) => name);
  const message = commitMessage(summary, changedFiles, gone);
  const commit = (
    await git.run(['commit-tree', tree, ...(target.head ? ['-p', target.head] : []), '-m', message], {
      env: { ...(await identityEnv(git)), ...dateEnv(exportTime(exported)) },
    })
  ).trim();
  stepDone('commit', env);
  // Should lk stop between moving the branch and bringing the files to it, the next run finishes (git-target.ts).
  const note = join(target.gitDir!, PENDING_NOTE);
  const pending: PendingNote = { pid: process.pid, from: target.head ?? '', to: commit };
  await writeFile(`${note}.tmp`, JSON.stringify(pending), { mode: 0o600 });
  await rename(`${note}.tmp`, note);
  stepDone('note', env);
  // The only step the user's repository sees: HEAD's branch moves, if it is still where it was.
  await git.run(['update-ref', '-m', `lk export --git: ${message}`, 'HEAD', commit, target.head ?? '']);
  stepDone('branch', env);
  try {
    await git.run(['read-tree', '-m', '-u', oldTree, tree]);
  } catch (error) {
    // A file edited while the export was fetched: the commit stands, the edit is left alone.
    await rm(note, { force: true });
    throw new LkError(
      `committed ${commit.slice(0, 7)} in ${dir}, but its files could not be brought to it (${(error as Error).message})`,
      1,
      `git -C ${dir} status shows what differs from the commit.`,
    );
  }
  stepDone('checkout', env);
  await privateFiles(dir, [...ours.keys()]);
  await rm(note, { force: true });
  io.info(`lk: committed ${commit.slice(0, 7)} in ${dir}: ${message}`);
}

/** "3 entries changed, lists.json deleted (the export holds no lists)": every collection that changed is named. */
function commitMessage(summary: string, changedFiles: string[], gone: string[]): string {
  const parts = summary === NO_CHANGES ? [] : [summary];
  const collections = gone.map((name) => name.replace(/\.json$/, '')).join(', ');
  if (gone.length > 0) parts.push(`${gone.join(', ')} deleted (the export holds no ${collections})`);
  if (parts.length === 0) parts.push(`${changedFiles.join(', ')} changed`);
  return parts.join(', ');
}

function isLkFile(entry: TreeEntry): boolean {
  return entry.type === 'blob' && entry.name.endsWith('.json') && !entry.name.includes('/');
}

/** lk's files readable by the user alone, those git left as they were too (a repository an older lk wrote). */
async function privateFiles(dir: string, names: string[]): Promise<void> {
  for (const name of names) await chmod(join(dir, name), 0o600).catch(() => {});
}

/** The repository keeps one account's backups: an export of another (or of none) is refused before any write. */
async function refuseAnotherAccount(target: GitTarget, previous: TreeEntry[], json: Record<string, unknown>): Promise<void> {
  const account = isObject(json.account) ? json.account : undefined;
  if (!account) {
    throw new LkError(
      `the export names no account; nothing was written to ${target.dir}`,
      1,
      'lk keeps one account per repository, and cannot tell whose this export is.',
    );
  }
  const file = previous.find((entry) => entry.name === 'account.json' && entry.type === 'blob');
  if (!file) return;
  let kept: unknown;
  try {
    kept = JSON.parse(await target.git.run(['cat-file', 'blob', file.object]));
  } catch {
    return; // not lk's account file: lk diff's own check stands
  }
  if (!isObject(kept)) return;
  const [a, b] = [ownerOfExport(kept).id, ownerOfExport(account).id];
  const differ = a !== null && b !== null ? a !== b : ownerName(kept) !== ownerName(account);
  if (differ) {
    throw new LkError(
      `${target.dir} keeps the backups of ${ownerName(kept)}; this export is of ${ownerName(account)}; nothing was written`,
      1,
      'Keep one repository per account: name another folder for this one.',
    );
  }
}

/** "ana (id 42)", or whichever of the two the account carries. */
function ownerName(owner: Record<string, unknown>): string {
  const { name, id } = ownerOfExport(owner);
  return name && id ? `${name} (id ${id})` : (name ?? (id ? `id ${id}` : 'an unnamed account'));
}

/** "library e12 ×2; history h4 ×3": ids that more than one item of a collection carries, or undefined. */
function duplicateIds(json: Record<string, unknown>): string | undefined {
  const ids = new DuplicateIds();
  for (const [key, value] of Object.entries(json)) {
    if (Array.isArray(value)) for (const item of value as unknown[]) ids.note(key, isObject(item) ? text(item.id) : null);
  }
  return ids.said();
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
        if (VALUES.has(key)) {
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
    notifications: added(count('notifications')),
    achievements: added(count('achievements')),
  });
}

/** The user's git identity when their config names one; lk's otherwise (git would refuse to commit). */
async function identityEnv(git: Git): Promise<NodeJS.ProcessEnv> {
  const configured = async (key: string) => (await git.attempt(['config', key])).stdout.trim() !== '';
  if ((await configured('user.name')) && (await configured('user.email'))) return {};
  const { name, email } = LK_IDENTITY;
  return { GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_NAME: name, GIT_COMMITTER_EMAIL: email };
}

/** The export's own time when it states one (docs/api.md does not promise it), else when lk received it. */
function exportTime(exported: ExportForGit): number {
  const stated = exported.json.exportedAt;
  const ms = typeof stated === 'string' ? Date.parse(stated) : Number.NaN;
  return Number.isNaN(ms) ? exported.fetchedAt : ms;
}

function dateEnv(ms: number): NodeJS.ProcessEnv {
  const date = `@${Math.floor(ms / 1000)} +0000`;
  return { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
}
