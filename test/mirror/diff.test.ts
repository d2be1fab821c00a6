import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLkInProcess, startTestBed, type TestBed } from '../e2e/harness.js';
import { tempDir } from '../support/temp-dir.js';
import { describeWithSqlite, describeWithoutSqlite } from '../support/sqlite-node.js';

// `lk diff OLD` without NEW compares OLD with the mirror: after a sync, the same answer as with the export the sync
// read. Where there is no node:sqlite (Node 20), that form says so in one line; the two-file form works everywhere
// (test/e2e/diff.test.ts).

describeWithoutSqlite(`on Node ${process.versions.node} (no node:sqlite)`, () => {
  it('lk diff OLD (against the mirror) exits 1 with one line naming Node 22.13', async () => {
    const dir = tempDir('lk-diff-mirror-');
    const result = await runLkInProcess(['diff', join(dir, 'old.json')], { env: { LK_DATA_DIR: dir } });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')[0]).toMatch(/^lk: lk diff without NEW .* needs Node 22\.13 or later/);
  });
});

describeWithSqlite('lk diff against the mirror', () => {
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

  describe("lk diff OLD: what the mirror's sync could not read is not compared", () => {
    let sparse: TestBed;
    let sparseDir: string;

    beforeAll(async () => {
      // The service's export leaves the notifications out: lk export reads them from their endpoint (the full key
      // may), a sync with the library key is refused them (403) and leaves them out of the mirror.
      sparse = await startTestBed({ entries: 40, rateLimit: 0, exportIntervalSeconds: 0, exportLeavesOut: ['notifications'] });
      sparseDir = tempDir('lk-diff-sparse-');
    });

    afterAll(async () => {
      await sparse.sandbox.close();
    });

    const run = (args: string[], { key = 'full', cache }: { key?: string; cache: string }) =>
      sparse.lk(args, { key, env: { LK_DATA_DIR: sparseDir, LK_CACHE_DIR: join(sparseDir, cache) } });
    /** An export with the full key, then a sync with the library key from that same export (the cache): one state of the account. */
    const exportThenSyncWithoutNotifications = async (name: string) => {
      const exported = join(sparseDir, `${name}.json`);
      expect((await run(['export', '-q', '-o', exported], { cache: name })).code).toBe(0);
      expect(JSON.parse(readFileSync(exported, 'utf8'))).toHaveProperty('notifications');
      const mirror = join(sparseDir, `${name}.db`);
      const synced = await run(['sync', '--db', mirror], { key: 'library', cache: name });
      expect(synced.code, synced.stderr).toBe(0);
      expect(synced.stderr).toMatch(/notifications not synced: the key lacks notifications:read/);
      return { exported, mirror };
    };
    /** As a sync by an lk before the record leaves the mirror: without mirror_meta's left_out. */
    const forgetRecord = (path: string) => {
      const { DatabaseSync } = createRequire(import.meta.url)('node:sqlite') as {
        DatabaseSync: new (path: string) => { exec(sql: string): void; close(): void };
      };
      const db = new DatabaseSync(path);
      db.exec("DELETE FROM mirror_meta WHERE key = 'left_out'");
      db.close();
    };

    it('a mirror whose sync was refused the notifications: none removed, --exit-code 0, one line naming them', async () => {
      const { exported, mirror } = await exportThenSyncWithoutNotifications('refused');
      const diff = await run(['diff', exported, '--db', mirror, '--exit-code', '--json'], { cache: 'refused' });
      expect(diff.stderr.trimEnd().split('\n')).toEqual(['lk: not compared: the mirror holds no notifications (its last sync could not read them)']);
      expect(diff.code, diff.stdout).toBe(0);
      expect(JSON.parse(diff.stdout)).toMatchObject({ notifications: { added: [], removed: [], changed: [] } });

      // A mirror an older lk synced the same way holds no record: its empty parts are read as not held, never as emptied.
      forgetRecord(mirror);
      const older = await run(['diff', exported, '--db', mirror, '--exit-code', '-q'], { cache: 'refused' });
      expect(older.stderr.trimEnd().split('\n')).toEqual([
        'lk: not compared: the mirror holds no notifications (synced by an older lk, which kept no record of what it could read; lk sync does)',
      ]);
      expect(older.code).toBe(0);
    });

    it('once a sync reads them again, they are compared: a notification added since the export is seen', async () => {
      const { exported, mirror } = await exportThenSyncWithoutNotifications('then-read');
      sparse.sandbox.addNotification('demo', { title: 'New season', message: 'It is back.' });
      const unread = await run(['diff', exported, '--db', mirror, '--exit-code', '-q'], { cache: 'then-read' });
      expect(unread.code, unread.stderr).toBe(0);

      // A new cache: the sync fetches the export of now (the cached one is older than the mirror).
      const synced = await run(['sync', '-q', '--db', mirror], { cache: 'then-read-full' });
      expect(synced.code, synced.stderr).toBe(0);
      const diff = await run(['diff', exported, '--db', mirror, '--exit-code', '--json'], { cache: 'then-read-full' });
      expect(diff.stderr).toBe('');
      expect(diff.code).toBe(1);
      const json = JSON.parse(diff.stdout) as { notifications: { added: { title: string }[]; removed: unknown[] } };
      expect(json.notifications.added.map((item) => item.title)).toEqual(['New season']);
      expect(json.notifications.removed).toEqual([]);
    });
  });
});
