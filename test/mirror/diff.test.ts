import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeHasSqlite } from '../../src/mirror/open.js';
import { runLkInProcess, startTestBed, type TestBed } from '../e2e/harness.js';
import { tempDir } from '../support/temp-dir.js';

// `lk diff OLD` without NEW compares OLD with the mirror: after a sync, the same answer as with the export the sync
// read. Where there is no node:sqlite (Node 20), that form says so in one line; the two-file form works everywhere
// (test/e2e/diff.test.ts).

if (!nodeHasSqlite()) {
  describe(`on Node ${process.versions.node} (no node:sqlite)`, () => {
    it('lk diff OLD (against the mirror) exits 1 with one line naming Node 22.13', async () => {
      const dir = tempDir('lk-diff-mirror-');
      const result = await runLkInProcess(['diff', join(dir, 'old.json')], { env: { LK_DATA_DIR: dir } });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr.trimEnd().split('\n')[0]).toMatch(/^lk: lk diff without NEW .* needs Node 22\.13 or later/);
    });
  });
} else {
  let bed: TestBed;
  let dir: string;

  beforeAll(async () => {
    bed = await startTestBed({ entries: 80, rateLimit: 0, exportIntervalSeconds: 0 });
    dir = tempDir('lk-diff-mirror-');
  });

  afterAll(async () => {
    await bed.sandbox.close();
  });

  const lk = (args: string[], cache: string) => bed.lk(args, { env: { LK_DATA_DIR: dir, LK_CACHE_DIR: join(dir, cache) } });

  describe('lk diff OLD: against the mirror', () => {
    it('after a sync, gives exactly what comparing with the export the sync read gives', async () => {
      const oldPath = join(dir, 'old.json');
      expect((await lk(['export', '-q', '-o', oldPath], 'cache-old')).code).toBe(0);
      const entries = bed.sandbox.entryIds('demo');
      bed.sandbox.removeEntry('demo', entries[2]!);
      bed.sandbox.rateEntry('demo', entries[5]!, 1);
      bed.sandbox.noteEntry('demo', entries[6]!, 'noted after the first export');
      bed.sandbox.addEvent('demo', entries[9]!);
      bed.sandbox.addEntries('demo', 3);

      // The sync fetches a new export into cache-new; lk export then answers from that same cache.
      expect((await lk(['sync', '-q'], 'cache-new')).code).toBe(0);
      const newPath = join(dir, 'new.json');
      expect((await lk(['export', '-q', '-o', newPath], 'cache-new')).code).toBe(0);

      const files = await lk(['diff', oldPath, newPath, '--json'], 'cache-new');
      // LK_DEBUG: a read in a pipe names the mirror it read only when asked to tell where data came from.
      const mirror = await bed.lk(['diff', oldPath, '--json'], { env: { LK_DATA_DIR: dir, LK_CACHE_DIR: join(dir, 'cache-new'), LK_DEBUG: '1' } });
      expect(mirror.code).toBe(0);
      expect(mirror.stderr).toMatch(/^lk: from the mirror /);
      const diff = JSON.parse(mirror.stdout) as {
        added: unknown[];
        removed: unknown[];
        changed: unknown[];
        profile: { changes: { field: string }[] };
        notifications: object;
        achievements: object;
      };
      expect(diff).toEqual(JSON.parse(files.stdout));
      expect([diff.added.length, diff.removed.length, diff.changed.length]).toEqual([3, 1, 3]);
      // The mirror's profile, notifications and achievements are compared as the files' are: 3 entries added and one
      // removed move the profile's counts.
      expect(diff.profile.changes.map((change) => change.field)).toContain('counts.entries');
      expect(diff.notifications).toEqual({ added: [], removed: [], changed: [] });
      expect(Object.keys(diff)).toEqual(expect.arrayContaining(['notifications', 'achievements', 'profile']));
    });
  });
}
