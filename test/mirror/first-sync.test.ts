import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestBed, type TestBed } from '../e2e/harness.js';
import { tempDir } from '../support/temp-dir.js';
import { describeWithSqlite, describeWithoutSqlite } from '../support/sqlite-node.js';

// Issue 33: the first lk sync is complete. An instance's export may leave collections out (SPEC.md fixes none of its
// fields): whatever it lacks is read from the endpoints in the same sync, so that every --offline command answers
// what the online one does, and a second sync with nothing changed changes no byte of lk feed or lk report.

// On Node 20, that lk sync says which Node it needs (the mirror's tests below are skipped there, counted).
describeWithoutSqlite(`on Node ${process.versions.node} (no node:sqlite)`, () => {
  it('lk sync exits 1 naming Node 22.13', async () => {
    const bed = await startTestBed({ entries: 5, rateLimit: 0 });
    try {
      const result = await bed.lk(['sync', '--db', join(tempDir('lk-first-sync-'), 'x.db')]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/needs Node 22\.13 or later/);
    } finally {
      await bed.sandbox.close();
    }
  });
});

describeWithSqlite('the first lk sync, from an export that leaves out the profile, achievements and notifications', () => {
  let bed: TestBed;
  let dir: string;
  const db = () => join(dir, 'first.db');
  const env = () => ({ LK_DATA_DIR: dir, LK_CACHE_DIR: join(dir, 'cache') });
  const sync = async () => {
    const result = await bed.lk(['sync', '--db', db()], { env: env() });
    expect(result.code, result.stderr).toBe(0);
    return result;
  };
  const offline = async (args: string[]) => {
    const result = await bed.lk([...args, '--offline', '--db', db()], { key: null, env: env() });
    expect(result.code, result.stderr).toBe(0);
    return result.stdout;
  };
  const run = async (args: string[]) => {
    const result = await bed.lk([...args, '--db', db()], { key: null, env: env() });
    expect(result.code, result.stderr).toBe(0);
    return result.stdout;
  };

  beforeAll(async () => {
    // The export hour is kept: the second sync reads the pages, as it does for a user who syncs twice in an hour.
    bed = await startTestBed({ entries: 60, rateLimit: 0, exportLeavesOut: ['profile', 'achievements', 'notifications'] });
    dir = tempDir('lk-first-sync-');
  });

  afterAll(async () => {
    await bed.sandbox.close();
  });

  it('reads what the export lacks from its endpoints in the same sync: --offline answers as online', async () => {
    const synced = await sync();
    expect(synced.stderr).toMatch(/from the export/);
    expect(bed.sandbox.counters.exports).toBe(1);
    for (const command of [['notifications', '--all'], ['lists', '--all'], ['reviews', '--all'], ['stats'], ['calendar']]) {
      const online = await bed.lk([...command, '--json']);
      expect(online.code, online.stderr).toBe(0);
      expect(await offline([...command, '--json']), command.join(' ')).toBe(online.stdout);
    }
    expect(JSON.parse(await offline(['notifications', '--all', '--json']))).not.toHaveLength(0);
  });

  it("titles the feed with the profile's name and links the profile's page, never the API's base URL", async () => {
    const atom = await run(['feed']);
    expect(atom).toContain('<title>Demo User’s recent activity</title>');
    expect(atom).toContain('<link rel="alternate" href="https://app.lk.example/u/demo"/>');
    expect(atom).not.toContain(bed.sandbox.url);
  });

  it('a second sync with nothing changed changes no byte of lk feed or lk report', async () => {
    const feedBefore = await run(['feed']);
    const jsonFeedBefore = await run(['feed', '--format', 'json']);
    const reportBefore = await run(['report', '--year', String(new Date().getUTCFullYear()), '--json']);
    const second = await sync();
    expect(second.stderr).toMatch(/\(\+0 ~0 -0 rows\)/);
    expect(await run(['feed'])).toBe(feedBefore);
    expect(await run(['feed', '--format', 'json'])).toBe(jsonFeedBefore);
    expect(await run(['report', '--year', String(new Date().getUTCFullYear()), '--json'])).toBe(reportBefore);
  });

  it('lk sync --full after a sync from the export reports no change when nothing changed (an event spelt in another key order is the same event)', async () => {
    const full = await bed.lk(['sync', '--full', '--db', db()], { env: env() });
    expect(full.code, full.stderr).toBe(0);
    expect(full.stderr).toMatch(/\(\+0 ~0 -0 rows\)/);
  });
});

describeWithSqlite('lk feed without a profile in the mirror', () => {
  let bed: TestBed;
  let dir: string;

  beforeAll(async () => {
    bed = await startTestBed({ entries: 30, rateLimit: 0, exportLeavesOut: ['profile'] });
    dir = tempDir('lk-feed-link-');
  });

  afterAll(async () => {
    await bed.sandbox.close();
  });

  it("links the web application's address from the works' url, never the API's base URL", async () => {
    const mirror = join(dir, 'no-profile.db');
    // The library key lacks profile:read: the profile is neither in the export nor readable.
    const synced = await bed.lk(['sync', '--db', mirror], { key: 'library', env: { LK_DATA_DIR: dir, LK_CACHE_DIR: join(dir, 'cache') } });
    expect(synced.code, synced.stderr).toBe(0);
    const atom = await bed.lk(['feed', '--db', mirror], { key: null, env: { LK_DATA_DIR: dir } });
    expect(atom.code, atom.stderr).toBe(0);
    expect(atom.stdout).toContain('<link rel="alternate" href="https://app.lk.example/"/>');
    expect(atom.stdout).not.toContain(bed.sandbox.url);
    expect(atom.stdout).not.toContain('<link/>');
  });
});

describeWithSqlite('lk sync of an empty library', () => {
  let bed: TestBed;

  beforeAll(async () => {
    bed = await startTestBed({ entries: 0, rateLimit: 0 });
  });

  afterAll(async () => {
    await bed.sandbox.close();
  });

  it('syncs from its empty export, without reading the paginated endpoints', async () => {
    const dir = tempDir('lk-empty-');
    bed.sandbox.resetCounters();
    const synced = await bed.lk(['sync', '--db', join(dir, 'empty.db')], { env: { LK_DATA_DIR: dir, LK_CACHE_DIR: join(dir, 'cache') } });
    expect(synced.code, synced.stderr).toBe(0);
    expect(synced.stderr).not.toMatch(/not using the export/);
    expect(synced.stderr).toMatch(/from the export/);
    expect(bed.sandbox.counters.byPath['/v1/library'] ?? 0).toBe(0);
    expect(bed.sandbox.counters.byPath['/v1/history'] ?? 0).toBe(0);
    const library = await bed.lk(['library', '--offline', '--json', '--db', join(dir, 'empty.db')], { key: null, env: { LK_DATA_DIR: dir } });
    expect(library.code, library.stderr).toBe(0);
    expect(JSON.parse(library.stdout)).toEqual([]);
  });
});
