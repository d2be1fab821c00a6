import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { lkSpawnArgs, outputOf, startTestBed, type TestBed } from './harness.js';
import { describeWith } from '../support/outside-tools.js';
import { tempDir } from '../support/temp-dir.js';

// lk export --git as real processes: the modes of what it writes under umask 022, a kill after each step of a commit
// (the test seam LK_TEST_GIT_STOP_AFTER) and the next run, a leftover index.lock, the refusals, and a repository
// whose hooks, fsmonitor and filters would leave a marker file if git ran them.

let root: string;
let runs = 0;

beforeAll(() => {
  root = tempDir('lk-export-git-private-');
  writeFileSync(join(root, 'gitconfig'), '');
});

/**
 * Each test has a sandbox of its own, so the tests run at once (it.concurrent): each waits on lk and git processes,
 * and one test's change is never another's (each counts "1 entry changed").
 */
async function withBed(test: (bed: TestBed) => Promise<void>): Promise<void> {
  const bed = await startTestBed({ entries: 30, rateLimit: 0, exportIntervalSeconds: 0 });
  try {
    await test(bed);
  } finally {
    await bed.sandbox.close();
  }
}

/** lk as a child process under umask 022 (sh sets it, then becomes lk); each run a cache of its own (a new export). */
function lk(bed: TestBed, args: string[], env: Record<string, string> = {}, key = 'full') {
  const [command, rest] = lkSpawnArgs(args);
  const child = spawn('sh', ['-c', 'umask 022 && exec "$@"', 'sh', command, ...rest], {
    env: {
      PATH: process.env.PATH,
      HOME: root,
      LANG: 'C.UTF-8',
      TZ: 'UTC',
      ...bed.env(key),
      LK_CACHE_DIR: join(root, `cache-${++runs}`),
      GIT_CONFIG_GLOBAL: join(root, 'gitconfig'),
      GIT_CONFIG_NOSYSTEM: '1',
      ...env,
    } as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return outputOf(child).then((result) => ({ ...result, signal: child.signalCode }));
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: root, GIT_CONFIG_GLOBAL: join(root, 'gitconfig'), GIT_CONFIG_NOSYSTEM: '1' },
  });
}

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
/** Each test runs lk two to four times, each with some twenty git commands: on a busy machine that takes a while. */
const SLOW = 120_000;

const commits = (dir: string) => Number(git(dir, 'rev-list', '--count', 'HEAD').trim());

/** Every file and folder under `dir` (its .git too), with its mode. */
function modes(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (path: string) => {
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      found.set(full, mode(full));
      if (statSync(full).isDirectory()) walk(full);
    }
  };
  walk(dir);
  return found;
}

/** A repository with one commit of the sandbox's export, and a change in the sandbox for the next run to commit. */
async function repositoryWithAChange(bed: TestBed, name: string): Promise<{ dir: string; head: string }> {
  const dir = join(root, name);
  const first = await lk(bed, ['export', '--git', dir]);
  expect(first.stderr).toMatch(/committed/);
  const entries = bed.sandbox.entryIds('demo');
  bed.sandbox.rateEntry('demo', entries[(runs * 7) % entries.length]!, (runs % 5) + 1);
  return { dir, head: git(dir, 'rev-parse', 'HEAD').trim() };
}

/** A repository as clean as after a run that was never stopped: HEAD at `head`, nothing staged or changed. */
function expectCleanAt(dir: string, head: string, noted = false): void {
  expect(git(dir, 'rev-parse', 'HEAD').trim()).toBe(head);
  expect(git(dir, 'status', '--porcelain', '--untracked-files=all')).toBe('');
  expect(existsSync(join(dir, '.git', 'lk-export-pending'))).toBe(noted);
}

describeWith(['git'], 'lk export --git, private and crash-safe', () => {
  it.concurrent(
    'under umask 022, a DIR lk makes is 0700, and nothing in it is readable by others (git objects included)',
    () =>
      withBed(async (bed) => {
        const dir = join(root, 'made-by-lk');
        const result = await lk(bed, ['export', '--git', dir]);
        expect(result.code).toBe(0);
        expect(mode(dir)).toBe('700');
        expect(git(dir, 'config', 'core.sharedRepository').trim()).toBe('0600');
        const open = [...modes(dir)].filter(([, bits]) => !/^[0-7]00$/.test(bits));
        expect(open).toEqual([]);
        expect(mode(join(dir, 'library.json'))).toBe('600');
      }),
    SLOW,
  );

  it.concurrent(
    'in a DIR the user made (0755), the files are 0600 and .git is 0700, after the first run and after a change',
    () =>
      withBed(async (bed) => {
        const dir = join(root, 'made-by-user');
        mkdirSync(dir, { mode: 0o755 });
        chmodSync(dir, 0o755);
        expect((await lk(bed, ['export', '--git', dir])).code).toBe(0);
        expect(mode(dir)).toBe('755'); // the user's own choice stays
        expect(mode(join(dir, '.git'))).toBe('700');
        bed.sandbox.addEntries('demo', 1);
        expect((await lk(bed, ['export', '--git', dir])).code).toBe(0);
        expect(commits(dir)).toBe(2);
        const files = readdirSync(dir).filter((name) => name.endsWith('.json'));
        expect(files.length).toBeGreaterThan(3);
        for (const name of files) expect([name, mode(join(dir, name))]).toEqual([name, '600']);
        const open = [...modes(join(dir, '.git'))].filter(([, bits]) => !/^[0-7]00$/.test(bits));
        expect(open).toEqual([]);
      }),
    SLOW,
  );

  for (const step of ['objects', 'tree', 'commit', 'note', 'branch', 'checkout']) {
    it.concurrent(
      `killed right after the step "${step}": the next run goes on, and leaves a clean repository at the right commit`,
      () =>
        withBed(async (bed) => {
          const { dir, head } = await repositoryWithAChange(bed, `stop-${step}`);
          const stopped = await lk(bed, ['export', '--git', dir], { LK_TEST_GIT_STOP_AFTER: step });
          expect(stopped.signal).toBe('SIGKILL');
          const moved = step === 'branch' || step === 'checkout';
          // Before the branch moves, the repository is exactly as it was; after, only lk's note is left to finish.
          if (!moved) expectCleanAt(dir, head, step === 'note');
          const again = await lk(bed, ['export', '--git', dir]);
          expect(again.stderr).not.toMatch(/uncommitted|refused/);
          expect(again.code).toBe(0);
          const now = git(dir, 'rev-parse', 'HEAD').trim();
          expect(commits(dir)).toBe(2);
          expectCleanAt(dir, now);
          expect(git(dir, 'log', '-1', '--format=%s').trim()).toMatch(/^1 entry changed/);
          expect(git(dir, 'diff', '--name-only', 'HEAD~1', 'HEAD').trim().split('\n')).toContain('library.json');
        }),
      SLOW,
    );
  }

  it.concurrent(
    'init: killed after git init, the next run commits into the repository it made',
    () =>
      withBed(async (bed) => {
        const dir = join(root, 'stop-init');
        const stopped = await lk(bed, ['export', '--git', dir], { LK_TEST_GIT_STOP_AFTER: 'init' });
        expect(stopped.signal).toBe('SIGKILL');
        const again = await lk(bed, ['export', '--git', dir]);
        expect(again.code).toBe(0);
        expect(commits(dir)).toBe(1);
        expectCleanAt(dir, git(dir, 'rev-parse', 'HEAD').trim());
      }),
    SLOW,
  );

  it.concurrent(
    "lk's own index.lock, left by a git killed with it, is removed once no git runs there; anyone else's is refused with the fix",
    () =>
      withBed(async (bed) => {
        const { dir } = await repositoryWithAChange(bed, 'stale-lock');
        const stopped = await lk(bed, ['export', '--git', dir], { LK_TEST_GIT_STOP_AFTER: 'branch' });
        expect(stopped.signal).toBe('SIGKILL');
        writeFileSync(join(dir, '.git', 'index.lock'), ''); // as a git killed during the checkout leaves it
        const again = await lk(bed, ['export', '--git', dir]);
        expect(again.code).toBe(0);
        expectCleanAt(dir, git(dir, 'rev-parse', 'HEAD').trim());
        expect(existsSync(join(dir, '.git', 'index.lock'))).toBe(false);

        // A lock lk did not leave (no note of a stopped run): refused, named, with the fix.
        const lock = join(dir, '.git', 'index.lock');
        writeFileSync(lock, '');
        bed.sandbox.resetCounters();
        const refused = await lk(bed, ['export', '--git', dir]);
        expect(refused.code).toBe(1);
        const lines = refused.stderr.trimEnd().split('\n');
        expect(lines[0]).toBe(`lk: ${lock} exists: a git command is running in ${dir}, or one was stopped; nothing was written`);
        expect(lines[1]).toBe(`If no git runs in ${dir}, remove it: rm ${lock}`);
        expect(bed.sandbox.counters.exports).toBe(0);
        expect(existsSync(lock)).toBe(true);
      }),
    SLOW,
  );

  it.concurrent(
    'refuses a detached HEAD, a folder inside another repository, and an export of another account: one line, nothing written',
    () =>
      withBed(async (bed) => {
        const { dir, head } = await repositoryWithAChange(bed, 'detached');
        git(dir, 'checkout', '--quiet', '--detach');
        bed.sandbox.resetCounters();
        const detached = await lk(bed, ['export', '--git', dir]);
        expect(detached.code).toBe(1);
        expect(detached.stderr).toMatch(new RegExp(`^lk: ${dir} has a detached HEAD \\(no branch checked out\\); nothing was written\\n`));
        const branch = git(dir, 'for-each-ref', '--format=%(refname:short)', 'refs/heads').trim();
        expect(detached.stderr).toContain(`git -C ${dir} switch ${branch}`);
        expect(bed.sandbox.counters.exports).toBe(0);
        expectCleanAt(dir, head);

        const inner = join(dir, 'nested', 'backups');
        const nested = await lk(bed, ['export', '--git', inner]);
        expect(nested.code).toBe(1);
        expect(nested.stderr).toMatch(new RegExp(`^lk: ${inner} is inside the git repository ${dir}; .*nothing was written\\n`));
        expect(existsSync(join(dir, 'nested'))).toBe(false);

        git(dir, 'checkout', '--quiet', '-'); // back on the branch
        const other = await lk(bed, ['export', '--git', dir], {}, 'nogames');
        expect(other.code).toBe(1);
        expect(other.stderr).toMatch(new RegExp(`^lk: ${dir} keeps the backups of demo.*; this export is of .*; nothing was written\\n`));
        expectCleanAt(dir, head);
      }),
    SLOW,
  );

  it.concurrent(
    "runs none of the repository's hooks, fsmonitor or clean/smudge filters, and still commits",
    () =>
      withBed(async (bed) => {
        const { dir } = await repositoryWithAChange(bed, 'hostile');
        const marker = join(root, 'hostile-ran');
        const script = join(root, 'hostile.sh');
        writeFileSync(script, `#!/bin/sh\necho "$0 $*" >> '${marker}'\ncat\n`);
        chmodSync(script, 0o755);
        writeFileSync(join(dir, '.gitattributes'), '* filter=mark\n');
        git(dir, 'add', '.gitattributes');
        git(dir, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '--quiet', '-m', 'attributes');
        const hooks = join(root, 'hostile-hooks');
        mkdirSync(hooks, { recursive: true });
        for (const hook of ['reference-transaction', 'post-index-change', 'post-checkout', 'pre-commit', 'post-commit']) {
          for (const folder of [hooks, join(dir, '.git', 'hooks')]) {
            writeFileSync(join(folder, hook), `#!/bin/sh\necho ${hook} >> '${marker}'\n`);
            chmodSync(join(folder, hook), 0o755);
          }
        }
        git(dir, 'config', 'filter.mark.clean', script);
        git(dir, 'config', 'filter.mark.smudge', script);
        git(dir, 'config', 'core.fsmonitor', script);
        git(dir, 'config', 'core.hooksPath', hooks);
        const result = await lk(bed, ['export', '--git', dir]);
        expect(result.stderr).toMatch(/committed [0-9a-f]{7}/);
        expect(result.code).toBe(0);
        expect(existsSync(marker)).toBe(false);
        expect(commits(dir)).toBe(3);
      }),
    SLOW,
  );
});
