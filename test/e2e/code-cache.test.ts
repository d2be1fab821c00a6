import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBed, tempHome, type TestBed } from './harness.js';

/**
 * bin/lk.cjs compiles the program with a V8 code cache under lk's cache folder (src/util/code-cache.ts). Real
 * processes: the cache is the launcher's, and whether V8 takes it depends on the order of a real run (the program
 * changes V8's flags before its first request, and V8 refuses a cache made under other flags).
 */
let bed: TestBed;

beforeAll(async () => {
  bed = await startTestBed({ entries: 5, rateLimit: 0 });
});

afterAll(async () => {
  await bed.sandbox.close();
});

const versionFolder = `node-v${process.versions.node}-${process.arch}`;

async function lkWithCache(cacheDir: string, args: string[]) {
  const run = await bed.lkProcess(args, { env: { LK_CACHE_DIR: cacheDir } });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return run;
}

/** whoami's account and key (its rate-limit reset counts down between runs). */
const accountOf = (stdout: string) => {
  const { account, key } = JSON.parse(stdout) as { account: unknown; key: unknown };
  return { account, key };
};

/** The one cache file, and what would show that it was written again: a new inode (it is renamed into place). */
function cacheFileOf(cacheDir: string) {
  const folder = join(cacheDir, 'compile', versionFolder);
  const files = readdirSync(folder);
  expect(files).toHaveLength(1);
  const file = join(folder, files[0]!);
  const { ino, mtimeMs, mode, size } = statSync(file);
  return { folder, file, ino, mtimeMs, mode, size };
}

describe('the code cache', () => {
  it("is kept under the cache folder, in a folder of this Node version's own, private", async () => {
    const home = tempHome();
    await lkWithCache(home.cacheDir, ['whoami', '--json']);
    expect(readdirSync(join(home.cacheDir, 'compile'))).toEqual([versionFolder]);
    const cache = cacheFileOf(home.cacheDir);
    expect(cache.size).toBeGreaterThan(10_000);
    expect(cache.mode & 0o777).toBe(0o600);
    expect(statSync(cache.folder).mode & 0o777).toBe(0o700);
  });

  it('is taken by the runs after it: written once, by the first, before the flags of its first request', async () => {
    const home = tempHome();
    const first = await lkWithCache(home.cacheDir, ['whoami', '--json']);
    const written = cacheFileOf(home.cacheDir);
    for (const args of [
      ['whoami', '--json'],
      ['library', '--limit', '2', '--json'],
      ['whoami', '--json'],
    ]) {
      const run = await lkWithCache(home.cacheDir, args);
      if (args[0] === 'whoami') expect(accountOf(run.stdout)).toEqual(accountOf(first.stdout));
      expect(cacheFileOf(home.cacheDir)).toEqual(written);
    }
  });

  it('a run that sends no request writes it as it ends, and the next run with requests takes it', async () => {
    const home = tempHome();
    await lkWithCache(home.cacheDir, ['config', 'get', 'timeout']);
    const written = cacheFileOf(home.cacheDir);
    await lkWithCache(home.cacheDir, ['whoami', '--json']);
    expect(cacheFileOf(home.cacheDir)).toEqual(written);
  });

  it('a damaged cache is refused and written anew: the run is the same', async () => {
    const home = tempHome();
    const clean = await lkWithCache(home.cacheDir, ['whoami', '--json']);
    const { file } = cacheFileOf(home.cacheDir);
    const garbage = Buffer.alloc(statSync(file).size, 0x5a);
    writeFileSync(file, garbage);
    const run = await lkWithCache(home.cacheDir, ['whoami', '--json']);
    expect(accountOf(run.stdout)).toEqual(accountOf(clean.stdout));
    expect(readFileSync(cacheFileOf(home.cacheDir).file).equals(garbage)).toBe(false);
    const rewritten = cacheFileOf(home.cacheDir);
    await lkWithCache(home.cacheDir, ['whoami', '--json']);
    expect(cacheFileOf(home.cacheDir)).toEqual(rewritten);
  });

  it('is never a reason to fail: a compile folder that cannot be made leaves lk working', async () => {
    const home = tempHome();
    mkdirSync(home.cacheDir, { recursive: true });
    writeFileSync(join(home.cacheDir, 'compile'), 'a file where the folder would go');
    const run = await lkWithCache(home.cacheDir, ['whoami', '--json']);
    expect(JSON.parse(run.stdout)).toHaveProperty('account');
    expect(existsSync(join(home.cacheDir, 'compile', versionFolder))).toBe(false);
  });
});
