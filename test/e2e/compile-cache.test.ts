import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { outputOf, startTestBed, type TestBed } from './harness.js';

/**
 * bin/lk.cjs turns on Node's own compile cache (22.1 and later) under `<cache folder>/compile` before it loads the
 * program; Node 20 has none, and nothing is written there. Real processes, each on a copy of the built lk (launcher,
 * dist/, node_modules linked) in a folder of its own: a program to rebuild, or a second install beside the first.
 */
const NODE_HAS_COMPILE_CACHE = 'enableCompileCache' in module;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let bed: TestBed;

beforeAll(async () => {
  bed = await startTestBed({ entries: 5, rateLimit: 0 });
});

afterAll(async () => {
  await bed.sandbox.close();
  rmSync(bed.home.root, { recursive: true, force: true });
});

/** A folder removed when the test ends. */
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lk-compile-cache-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A copy of the built lk under `dir`, as a package manager would install it. */
function install(dir: string): { bin: string; program: string } {
  mkdirSync(dir, { recursive: true });
  cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
  cpSync(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
  // The OS keyring and jq-wasm stay in node_modules (scripts/build.mjs).
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return { bin: join(dir, 'bin/lk.cjs'), program: join(dir, 'dist/cli.cjs') };
}

async function lk(bin: string, cacheDir: string, args: string[]) {
  // lk's own cache under LK_CACHE_DIR, not the run's shared one (bed.env's NODE_COMPILE_CACHE): the cache tested here.
  const { NODE_COMPILE_CACHE: _shared, ...own } = bed.env();
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, LANG: 'C.UTF-8', TZ: 'UTC', ...own, LK_CACHE_DIR: cacheDir };
  const run = await outputOf(spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] }));
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return run;
}

/** whoami's account (its rate-limit reset counts down between runs). */
const accountOf = (stdout: string) => (JSON.parse(stdout) as { account: unknown }).account;

/**
 * Every file under `<cache>/compile`, with what would show that Node wrote it again: Node rewrites an entry (a new
 * file renamed into place) only when V8 refused it or it was missing, so an entry the same as before was taken.
 */
function compiled(cacheDir: string): Record<string, { ino: number; mtimeMs: number; size: number }> {
  const folder = join(cacheDir, 'compile');
  if (!existsSync(folder)) return {};
  const entries: Record<string, { ino: number; mtimeMs: number; size: number }> = {};
  for (const name of readdirSync(folder, { recursive: true }) as string[]) {
    const stat = statSync(join(folder, name));
    if (stat.isFile()) entries[name] = { ino: stat.ino, mtimeMs: stat.mtimeMs, size: stat.size };
  }
  return entries;
}

describe("Node's compile cache, from the launcher", () => {
  it(
    NODE_HAS_COMPILE_CACHE
      ? 'keeps the compiled program under <cache>/compile, and the runs after the first take it as it is'
      : 'is not there on Node 20: nothing is written under <cache>/compile, and lk runs',
    async () => {
      const cacheDir = join(scratch(), 'cache');
      const first = await lk(join(ROOT, 'bin/lk.cjs'), cacheDir, ['whoami', '--json']);
      const written = compiled(cacheDir);
      if (!NODE_HAS_COMPILE_CACHE) {
        expect(existsSync(join(cacheDir, 'compile'))).toBe(false);
        expect(accountOf(first.stdout)).toHaveProperty('username', 'demo');
        return;
      }
      // One entry: the program (the launcher's own helpers are read before the cache is on).
      expect(Object.values(written)).toHaveLength(1);
      expect(Object.values(written)[0]!.size).toBeGreaterThan(100_000);
      for (const args of [
        ['library', '--limit', '2', '--json'],
        ['whoami', '--json'],
      ]) {
        const run = await lk(join(ROOT, 'bin/lk.cjs'), cacheDir, args);
        if (args[0] === 'whoami') expect(accountOf(run.stdout)).toEqual(accountOf(first.stdout));
        expect(compiled(cacheDir)).toEqual(written);
      }
    },
  );

  it('a program rebuilt to other code of the same length and the same mtime runs the new code', async () => {
    const dir = scratch();
    const cacheDir = join(dir, 'cache');
    const { bin, program } = install(join(dir, 'lk'));
    // As a package manager that normalises mtimes installs it (Nix sets them all to 1 s after the epoch).
    utimesSync(program, 1, 1);
    await lk(bin, cacheDir, ['whoami', '--json']);
    expect(Object.keys(compiled(cacheDir))).toHaveLength(NODE_HAS_COMPILE_CACHE ? 1 : 0);
    const { size } = statSync(program);
    const rebuilt = "exports.main = async () => { process.stdout.write('the rebuilt program\\n'); return 0; };\n";
    writeFileSync(program, rebuilt.padEnd(size - 1, ' ') + '\n');
    utimesSync(program, 1, 1);
    expect(statSync(program)).toMatchObject({ size, mtimeMs: 1000 });
    expect((await lk(bin, cacheDir, ['whoami', '--json'])).stdout).toBe('the rebuilt program\n');
    expect((await lk(bin, cacheDir, ['whoami', '--json'])).stdout).toBe('the rebuilt program\n');
  });

  it('two builds sharing one cache folder both keep a working cache', async () => {
    const dir = scratch();
    const cacheDir = join(dir, 'cache');
    const first = install(join(dir, 'global'));
    const second = install(join(dir, 'local'));
    // Another build: the same program with one more line.
    writeFileSync(second.program, `${readFileSync(second.program, 'utf8')}// another build\n`);
    const account = accountOf((await lk(first.bin, cacheDir, ['whoami', '--json'])).stdout);
    await lk(second.bin, cacheDir, ['whoami', '--json']);
    const written = compiled(cacheDir);
    expect(Object.keys(written)).toHaveLength(NODE_HAS_COMPILE_CACHE ? 2 : 0);
    for (const { bin } of [first, second, first, second]) {
      expect(accountOf((await lk(bin, cacheDir, ['whoami', '--json'])).stdout)).toEqual(account);
      // Neither build's entry was refused or replaced by the other's.
      expect(compiled(cacheDir)).toEqual(written);
    }
  });

  it('a damaged entry is refused and written anew: the run is the same', async () => {
    const cacheDir = join(scratch(), 'cache');
    const bin = join(ROOT, 'bin/lk.cjs');
    const clean = await lk(bin, cacheDir, ['whoami', '--json']);
    for (const name of Object.keys(compiled(cacheDir))) {
      writeFileSync(join(cacheDir, 'compile', name), Buffer.alloc(compiled(cacheDir)[name]!.size, 0x5a));
    }
    const damaged = compiled(cacheDir);
    expect(accountOf((await lk(bin, cacheDir, ['whoami', '--json'])).stdout)).toEqual(accountOf(clean.stdout));
    const rewritten = compiled(cacheDir);
    for (const name of Object.keys(damaged)) expect(rewritten[name]!.ino).not.toBe(damaged[name]!.ino);
    expect(Object.keys(rewritten)).toHaveLength(NODE_HAS_COMPILE_CACHE ? 1 : 0);
  });

  it('is never a reason to fail: a compile folder that cannot be made leaves lk working, silently', async () => {
    const cacheDir = join(scratch(), 'cache');
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(join(cacheDir, 'compile'), 'a file where the folder would go');
    const run = await lk(join(ROOT, 'bin/lk.cjs'), cacheDir, ['whoami', '--json']);
    expect(accountOf(run.stdout)).toHaveProperty('username', 'demo');
    expect(readFileSync(join(cacheDir, 'compile'), 'utf8')).toBe('a file where the folder would go');
  });
});
