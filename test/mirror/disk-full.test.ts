import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBed, type TestBed } from '../e2e/harness.js';
import { describeWith, hasTool } from '../support/outside-tools.js';
import { tempDir } from '../support/temp-dir.js';
import { runOnOldNode } from '../support/old-node.js';
import { describeWithSqlite, describeWithoutSqlite, hasSqlite } from '../support/sqlite-node.js';

// Issue 45: a full disk during lk sync is named as one, with the folder, and leaves nothing that makes readers say a
// sync is running; a read-only file system is named as such (not ENOENT). Both need a file system of their own: a
// small tmpfs, which only root (or a user allowed to mount) can make.

/** Why no tmpfs can be mounted here, or undefined when one can (tried once, then unmounted and removed). */
function cannotMount(): string | undefined {
  if (process.platform !== 'linux') return `not Linux (${process.platform})`;
  const probe = mkdtempSync(join(tmpdir(), 'lk-mount-probe-'));
  try {
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { encoding: 'utf8' });
    if (mounted.error) return `mount: ${mounted.error.message}`;
    if (mounted.status !== 0) return `mount -t tmpfs failed: ${mounted.stderr.trim() || `exit ${mounted.status}`}`;
    spawnSync('umount', [probe]);
    return undefined;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

const why = hasSqlite && hasTool('mount') ? cannotMount() : undefined;

/** Appends to `path` until the file system refuses: the code it refused with. */
function fillUp(path: string): string | undefined {
  const chunk = Buffer.alloc(64 * 1024);
  for (;;) {
    try {
      appendFileSync(path, chunk);
    } catch (error) {
      return (error as NodeJS.ErrnoException).code;
    }
  }
}

/** Runs `use` with a tmpfs of `size` mounted at a fresh folder, unmounted whatever happens. */
async function withTmpfs<T>(options: string, use: (dir: string) => Promise<T>): Promise<T> {
  const dir = join(tempDir('lk-disk-'), 'fs');
  mkdirSync(dir);
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { encoding: 'utf8' });
  expect(mounted.status, mounted.stderr).toBe(0);
  try {
    return await use(dir);
  } finally {
    // Busy means lk left a file open there (a leak this test would show): detached anyway, then failed.
    const unmounted = spawnSync('umount', [dir], { encoding: 'utf8' });
    if (unmounted.status !== 0) spawnSync('umount', ['-l', dir]);
    expect(unmounted.status, unmounted.stderr).toBe(0);
  }
}

describeWithSqlite('the mirror on a full or read-only file system', () => {
  describeWith(['mount'], 'lk sync on a full or read-only file system', () => {
    describe.skipIf(why !== undefined)(`in a tmpfs of its own${why ? ` (skipped: ${why})` : ''}`, () => {
      let bed: TestBed;
      let cacheDir: string;

      beforeAll(async () => {
        bed = await startTestBed({ entries: 250, rateLimit: 0 });
        cacheDir = tempDir('lk-disk-cache-');
      });
      afterAll(async () => {
        await bed.sandbox.close();
      });

      const lk = (args: string[], dataDir: string) => bed.lk(args, { env: { LK_DATA_DIR: dataDir, LK_CACHE_DIR: cacheDir } });

      it('a first sync that fills the disk: named with its folder, exit 1, no file left; readers say there is no mirror', async () => {
        await withTmpfs('size=300k', async (dir) => {
          const synced = await lk(['sync'], dir);
          expect(synced.code).toBe(1);
          expect(synced.stderr).toBe(
            `lk: the disk is full: cannot write the mirror in ${dir}; no mirror was made\nFree some space there (df -h ${dir}), or sync to another disk with --db FILE.\n`,
          );
          expect(readdirSync(dir)).toEqual([]);
          const status = await lk(['status', '--offline'], dir);
          expect(status.code).toBe(1);
          expect(status.stderr).toMatch(/^lk: no mirror at /);
        });
      });

      it('a sync of a mirror on a disk that has filled: named, exit 1, the mirror left as it was for its readers', async () => {
        await withTmpfs('size=4m', async (dir) => {
          const first = await lk(['sync'], dir);
          expect(first.code, first.stderr).toBe(0);
          const before = await lk(['status', '--offline', '--json'], dir);
          // Everything the file system has left, taken by another file.
          expect(fillUp(join(dir, 'fill'))).toBe('ENOSPC');
          const synced = await lk(['sync', '--full'], dir);
          expect(synced.code).toBe(1);
          expect(synced.stderr.split('\n')[0]).toBe(
            `lk: the disk is full: cannot write the mirror in ${dir}; ${join(dir, 'default.db')} was left as it was`,
          );
          rmSync(join(dir, 'fill'));
          const after = await lk(['status', '--offline', '--json'], dir);
          expect(after.code, after.stderr).toBe(0);
          expect(after.stdout).toBe(before.stdout);
        });
      });

      it('a data folder under a read-only mount: the read-only file system is named, not ENOENT', async () => {
        await withTmpfs('size=64k,ro', async (dir) => {
          const synced = await lk(['sync'], join(dir, 'lk'));
          expect(synced.code).toBe(1);
          expect(synced.stderr.split('\n')[0]).toBe(
            `lk: cannot make the folder of the mirror ${join(dir, 'lk', 'default.db')}: ${dir} is on a read-only file system`,
          );
          const inPlace = await lk(['sync'], dir);
          expect(inPlace.code).toBe(1);
          expect(inPlace.stderr.split('\n')[0]).toBe(`lk: cannot sync ${join(dir, 'default.db')}: its folder ${dir} is on a read-only file system`);
        });
      });
    });
  });
});

describeWithoutSqlite(`on Node ${process.versions.node} (no node:sqlite)`, () => {
  it(`on Node ${process.versions.node} (no node:sqlite) lk sync says it needs Node 22.13 before it writes anything`, async () => {
    const result = await runOnOldNode(['sync']);
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')[0]).toMatch(/^lk: lk sync needs Node 22\.13 or later/);
    expect(readdirSync(result.dataDir)).toEqual([]);
  });
});
