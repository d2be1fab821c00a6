import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { lkSpawnArgs, outputOf, startTestBed, type TestBed } from './harness.js';
import { describeWith } from '../support/outside-tools.js';
import { running } from '../support/processes.js';
import { tempDir } from '../support/temp-dir.js';
import type { IoStreams } from '../../src/output/terminal/io.js';
import { until } from '../support/until.js';

// lk export --git DIR against the sandbox, with the system's git; the user's git config is a file of the test's own.

let bed: TestBed;
let root: string;
let runs = 0;

beforeAll(async () => {
  bed = await startTestBed({ entries: 50, rateLimit: 0, exportIntervalSeconds: 0 });
  root = tempDir('lk-export-git-');
  writeFileSync(join(root, 'gitconfig'), '');
});

afterAll(async () => {
  await bed.sandbox.close();
});

/** Each run a cache of its own (a new export from the sandbox), unless one is named; git reads only our config. */
function gitEnv(cache = `cache-${++runs}`): Record<string, string> {
  return { LK_CACHE_DIR: join(root, cache), GIT_CONFIG_GLOBAL: join(root, 'gitconfig'), GIT_CONFIG_NOSYSTEM: '1' };
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: root, GIT_CONFIG_GLOBAL: join(root, 'gitconfig'), GIT_CONFIG_NOSYSTEM: '1' },
  });
}

const commits = (dir: string) => Number(git(dir, 'rev-list', '--count', 'HEAD').trim());

describeWith(['git'], 'lk export --git', () => {
  it('twice with nothing changed makes one commit; a change makes a second touching only the files that changed', async () => {
    const dir = join(root, 'twice');
    const first = await bed.lk(['export', '--git', dir], { env: gitEnv('cache-twice') });
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('');
    expect(first.stderr).toMatch(/committed [0-9a-f]{7} in .*: 50 entries added, [\d,]+ history events added/);
    // From the cache, then a new export of the same data: nothing to commit either way.
    for (const env of [gitEnv('cache-twice'), gitEnv()]) {
      const again = await bed.lk(['export', '--git', dir], { env });
      expect(again.code).toBe(0);
      expect(again.stderr).toMatch(/nothing changed since the last commit/);
    }
    expect(commits(dir)).toBe(1);
    expect(readdirSync(dir).sort()).toEqual(
      [
        '.git',
        'account.json',
        'achievements.json',
        'history.json',
        'library.json',
        'lists.json',
        'notifications.json',
        'profile.json',
        'reviews.json',
      ].sort(),
    );
    const library = JSON.parse(readFileSync(join(dir, 'library.json'), 'utf8')) as { id: string }[];
    const ids = library.map((entry) => entry.id);
    expect(ids).toEqual([...ids].sort());
    expect(Object.keys(library[0]!)).toEqual(Object.keys(library[0]!).sort());

    const entry = bed.sandbox.entryIds('demo')[4]!;
    const rating = (library.find((item) => item.id === entry) as { rating?: unknown }).rating;
    bed.sandbox.rateEntry('demo', entry, rating === 1 ? 2 : 1);
    const cache = gitEnv();
    const changed = await bed.lk(['export', '--git', dir], { env: cache });
    expect(changed.code).toBe(0);
    expect(commits(dir)).toBe(2);
    expect(git(dir, 'show', '--name-only', '--format=', 'HEAD').trim().split('\n')).toEqual(['library.json']);
    expect(git(dir, 'log', '-1', '--format=%s|%an <%ae>|%at').trim().split('|')).toEqual([
      '1 entry changed',
      'lk <lk@localhost>',
      String(Math.floor(Date.parse(exportedAt(await bed.lk(['export'], { env: cache }))) / 1000)),
    ]);
    expect(git(dir, 'status', '--porcelain')).toBe('');
  }, 120_000);

  it("the author is the one the user's git config names, when it names one", async () => {
    const dir = join(root, 'identity');
    const config = join(root, 'gitconfig-named');
    writeFileSync(config, '[user]\n\tname = Ada Lovelace\n\temail = ada@example.org\n');
    const result = await bed.lk(['export', '--git', dir], { env: { ...gitEnv(), GIT_CONFIG_GLOBAL: config } });
    expect(result.code).toBe(0);
    expect(git(dir, 'log', '-1', '--format=%an <%ae>').trim()).toBe('Ada Lovelace <ada@example.org>');
  }, 120_000);

  it('refuses a non-empty folder that is not a repository, and a repository with uncommitted changes: nothing written, no export fetched', async () => {
    const plain = join(root, 'plain');
    mkdirSync(plain);
    writeFileSync(join(plain, 'notes.txt'), 'mine\n');
    bed.sandbox.resetCounters();
    const refused = await bed.lk(['export', '--git', plain], { env: gitEnv() });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^lk: .*plain is not empty and is not a git repository; nothing was written\n/);
    expect(readdirSync(plain)).toEqual(['notes.txt']);

    const dirty = join(root, 'dirty');
    expect((await bed.lk(['export', '--git', dirty], { env: gitEnv() })).code).toBe(0);
    writeFileSync(join(dirty, 'library.json'), '[]\n');
    const head = git(dirty, 'rev-parse', 'HEAD');
    bed.sandbox.resetCounters();
    const unclean = await bed.lk(['export', '--git', dirty], { env: gitEnv() });
    expect(unclean.code).toBe(1);
    expect(unclean.stderr).toMatch(/has uncommitted changes; nothing was written/);
    // The hint names the real folder, not "DIR".
    expect(unclean.stderr).toContain(`(git -C ${dirty} status shows them)`);
    expect(git(dirty, 'rev-parse', 'HEAD')).toBe(head);
    expect(readFileSync(join(dirty, 'library.json'), 'utf8')).toBe('[]\n');
    expect(bed.sandbox.counters.exports).toBe(0);
  }, 120_000);

  it('without git on PATH: one line naming what to install, before any request', async () => {
    const emptyBin = join(root, 'no-git-here');
    mkdirSync(emptyBin, { recursive: true });
    bed.sandbox.resetCounters();
    const result = await bed.lk(['export', '--git', join(root, 'never')], { env: { ...gitEnv(), PATH: emptyBin } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^lk: lk export --git needs git, and there is no git on PATH\nInstall git \(Debian\/Ubuntu: apt install git/);
    expect(bed.sandbox.counters.requests).toBe(0);
    expect(existsSync(join(root, 'never'))).toBe(false);
  }, 120_000);

  it('with an empty PATH entry, the system’s git and sh, never a ./git or ./sh of the current folder', async () => {
    const cwd = tempDir('lk-export-git-planted-');
    const marker = join(cwd, 'marker');
    for (const name of ['git', 'sh']) {
      writeFileSync(join(cwd, name), `#!/bin/sh\ntouch '${marker}'\nexit 1\n`);
      chmodSync(join(cwd, name), 0o755);
    }
    const dir = join(root, 'planted');
    const result = await bed.lkProcess(['export', '--git', dir], { env: { ...gitEnv(), PATH: `:${process.env.PATH ?? '/usr/bin:/bin'}` }, cwd });
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(commits(dir)).toBe(1);
  }, 120_000);

  it('refuses --git with the other destinations, before any request', async () => {
    for (const args of [['-o', 'x.json'], ['--output-dir', root], ['--gzip'], ['--format', 'csv'], ['--jq', '.']]) {
      bed.sandbox.resetCounters();
      const result = await bed.lk(['export', '--git', join(root, 'never'), ...args], { env: gitEnv() });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^lk: --git .*does not combine with/);
      expect(bed.sandbox.counters.requests).toBe(0);
    }
  }, 120_000);

  it('a SIGKILL while the files are being written leaves the repository at its last commit, git status clean', async () => {
    const dir = join(root, 'killed');
    expect((await bed.lk(['export', '--git', dir], { env: gitEnv() })).code).toBe(0);
    const head = git(dir, 'rev-parse', 'HEAD');
    bed.sandbox.rateEntry('demo', bed.sandbox.entryIds('demo')[9]!, 2);
    bed.sandbox.addEntries('demo', 1);

    // The real git, behind a script that holds the third blob's write until the test has killed lk.
    const bin = join(root, 'holding-bin');
    mkdirSync(bin, { recursive: true });
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    const [count, held, go] = ['count', 'held', 'go'].map((name) => join(root, `kill-${name}`)) as [string, string, string];
    writeFileSync(
      join(bin, 'git'),
      `#!/bin/sh
case " $* " in *" hash-object "*)
  n=$(($(cat '${count}' 2>/dev/null || echo 0) + 1)); echo $n > '${count}'
  if [ $n = 3 ]; then echo $$ > '${held}'; while [ ! -e '${go}' ]; do sleep 0.02; done; fi;;
esac
exec '${realGit}' "$@"
`,
    );
    chmodSync(join(bin, 'git'), 0o755);
    const env = { ...process.env, ...bed.env(), ...gitEnv(), PATH: `${bin}:${process.env.PATH}` };
    const child = spawn(...lkSpawnArgs(['export', '--git', dir]), { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const ended = outputOf(child);
    await until(() => existsSync(held) && readFileSync(held, 'utf8').trim() !== '');
    child.kill('SIGKILL');
    await ended;
    expect(child.signalCode).toBe('SIGKILL');
    // Let the held git go on (its lk is gone, so its input ends), and wait until it has.
    const holder = Number(readFileSync(held, 'utf8').trim());
    writeFileSync(go, '');
    await until(() => !running(holder));

    expect(git(dir, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(dir, 'status', '--porcelain')).toBe('');
    expect(commits(dir)).toBe(1);
    // The repository is as usable as before: the next run commits the change.
    expect((await bed.lk(['export', '--git', dir], { env: gitEnv() })).code).toBe(0);
    expect(commits(dir)).toBe(2);
    // The message names every collection that changed (an entry added moves the profile's counts, and achievements).
    expect(git(dir, 'log', '-1', '--format=%s').trim()).toMatch(
      /^1 entry added, 1 entry changed, \d+ achievements? changed, 1 profile field changed$/,
    );
  }, 120_000);
});

describeWith(['git'], 'lk export --git and what the export holds', () => {
  it('a collection the new export lacks is deleted from the tree and its file, and the message says so', async () => {
    const dir = join(root, 'lists-gone');
    expect((await bed.lk(['export', '--git', dir], { env: gitEnv() })).code).toBe(0);
    expect(git(dir, 'ls-tree', '--name-only', 'HEAD')).toContain('lists.json');
    const without = await startTestBed({ entries: 50, rateLimit: 0, exportIntervalSeconds: 0, exportLeavesOut: ['lists'] });
    try {
      const result = await without.lk(['export', '--git', dir], { env: gitEnv() });
      expect(result.code).toBe(0);
      expect(git(dir, 'log', '-1', '--format=%s').trim()).toMatch(/lists\.json deleted \(the export holds no lists\)$/);
      expect(git(dir, 'ls-tree', '--name-only', 'HEAD')).not.toContain('lists.json');
      expect(existsSync(join(dir, 'lists.json'))).toBe(false);
      expect(git(dir, 'status', '--porcelain')).toBe('');
    } finally {
      await without.sandbox.close();
    }
  }, 120_000);

  it('an export with duplicate ids is committed whole, and they are named on one stderr line; one with no account is refused', async () => {
    const { prepareGitTarget, commitExport } = await import('../../src/export/git.js');
    const said: string[] = [];
    const io = { info: (line: string) => said.push(line), warn: (line: string) => said.push(line) } as unknown as IoStreams;
    const env = { PATH: process.env.PATH, HOME: root, GIT_CONFIG_GLOBAL: join(root, 'gitconfig'), GIT_CONFIG_NOSYSTEM: '1' };
    const dir = join(root, 'duplicates');
    const account = { id: 'u1', username: 'ana' };
    const library = [{ id: 'e1', rating: 1 }, { id: 'e1', rating: 2 }, { id: 'e2' }];
    await commitExport(await prepareGitTarget(dir, env), { json: { account, library, history: [] }, fetchedAt: 0 }, io, env);
    expect(said.filter((line) => /same id/.test(line))).toEqual([
      'lk: warning: the export has items of the same id (library e1 ×2); all of them are kept',
    ]);
    expect((JSON.parse(readFileSync(join(dir, 'library.json'), 'utf8')) as unknown[]).length).toBe(3);

    const nobody = join(root, 'nobody');
    await expect(commitExport(await prepareGitTarget(nobody, env), { json: { library: [] }, fetchedAt: 0 }, io, env)).rejects.toThrow(
      `the export names no account; nothing was written to ${nobody}`,
    );
    expect(existsSync(nobody)).toBe(false);
  }, 120_000);
});

function exportedAt(result: { stdout: string }): string {
  return (JSON.parse(result.stdout) as { exportedAt: string }).exportedAt;
}
