import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/mirror/migrations.js';
import { sha256Hex } from '../../src/util/hash.js';
import { startTestBed, virtualClock, type TestBed } from '../e2e/harness.js';
import { describeWithSqlite, describeWithoutSqlite } from '../support/sqlite-node.js';

/**
 * test/fixtures/mirror-v0.db: made by lk before migrations (main at f4cfff4, user_version 0) with
 *   lk sandbox --seed 7 --entries 15   then   lk sync --db mirror-v0.db
 * with the sandbox's clock on 2026-11-24 07:50:20Z. The sandbox's data is anchored to the day it starts, so the sandbox
 * here runs on that day. Made again when the sandbox's generated data changed (shows' episode counts and airings,
 * 2026-11-27): f4cfff4's lk synced from the sandbox of that day's main, started in-process with that clock.
 */
const FIXTURE = new URL('../fixtures/mirror-v0.db', import.meta.url).pathname;
const FIXTURE_MADE_AT = Date.parse('2026-11-24T07:50:20Z');

interface Db {
  exec(sql: string): void;
  prepare(sql: string): { all(): Record<string, unknown>[]; get(): Record<string, unknown> | undefined };
  close(): void;
}

function withDb<T>(path: string, use: (db: Db) => T, readOnly = true): T {
  const { DatabaseSync } = createRequire(import.meta.url)('node:sqlite') as {
    DatabaseSync: new (path: string, options?: { readOnly?: boolean }) => Db;
  };
  const db = new DatabaseSync(path, { readOnly });
  try {
    return use(db);
  } finally {
    db.close();
  }
}

const userVersion = (path: string) => Number(withDb(path, (db) => db.prepare('PRAGMA user_version').get()!.user_version));
const fileDigest = (path: string) => sha256Hex(readFileSync(path));

let bed: TestBed;
let dir: string;

/** A copy of the fixture to work on: the committed file is never opened (even a read-only open of a WAL file adds files beside it). */
function copyOfFixture(name: string): string {
  const path = join(dir, `${name}.db`);
  copyFileSync(FIXTURE, path);
  return path;
}

beforeAll(async () => {
  bed = await startTestBed({ seed: 7, entries: 15, clock: virtualClock(FIXTURE_MADE_AT - Date.now()) });
  dir = mkdtempSync(join(tmpdir(), 'lk-migrations-'));
});

afterAll(async () => {
  await bed.sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

describeWithoutSqlite(`on Node ${process.versions.node} (no node:sqlite)`, () => {
  it(`on Node ${process.versions.node} (no node:sqlite) lk sync refuses the old mirror with the Node it needs, and leaves it as it was`, async () => {
    const db = copyOfFixture('old-node');
    const digest = fileDigest(db);
    const run = await bed.lk(['sync', '--db', db]);
    expect(run.code).toBe(1);
    expect(run.stderr.split('\n')[0]).toMatch(/needs Node 22\.13 or later/);
    expect(fileDigest(db)).toBe(digest);
  });
});

describeWithSqlite('mirror migrations (PRAGMA user_version)', () => {
  it('a mirror made before migrations is searched as it is, and reading it leaves its version alone', async () => {
    const db = copyOfFixture('searched');
    const found = await bed.lk(['search', 'amelie', '--db', db, '--json'], { key: null });
    expect(found.code, found.stderr).toBe(0);
    expect((JSON.parse(found.stdout) as { work: { title: string } }[]).map((entry) => entry.work.title)).toContain('Amélie');
    expect(userVersion(db)).toBe(0);
  });

  it(`lk sync upgrades it in place to version ${SCHEMA_VERSION}: every row kept, nothing added, changed or removed`, async () => {
    const db = copyOfFixture('upgraded');
    const before = withDb(db, (d) => d.prepare('SELECT id, json FROM entries ORDER BY id').all());
    const synced = await bed.lk(['sync', '--db', db], { env: { LK_CACHE_DIR: join(dir, 'cache-upgraded') } });
    expect(synced.code, synced.stderr).toBe(0);
    expect(synced.stderr).toContain('(+0 ~0 -0 rows)');
    expect(userVersion(db)).toBe(SCHEMA_VERSION);
    withDb(db, (d) => {
      expect(d.prepare('SELECT id, json FROM entries ORDER BY id').all()).toEqual(before);
      // The run of the lk that made it is kept beside this one; the schema_version row gave way to user_version.
      expect(d.prepare('SELECT count(*) AS n FROM sync_runs').get()!.n).toBe(2);
      expect(d.prepare("SELECT count(*) AS n FROM mirror_meta WHERE key = 'schema_version'").get()!.n).toBe(0);
      // Version 3: every event's domain, minutes and pages filled from its entry, work and json, events already
      // there included (the sync changed none of them).
      const events = d
        .prepare(
          `SELECT count(*) AS n, count(h.domain) AS domains, count(h.minutes) AS minutes, count(h.pages) AS pages,
                  sum(h.domain IS NOT coalesce(e.domain, w.domain)) AS wrong_domains,
                  sum(h.minutes IS NOT json_extract(h.json, '$.minutes')) AS wrong_minutes,
                  sum(h.pages IS NOT json_extract(h.json, '$.pages')) AS wrong_pages
           FROM history h LEFT JOIN entries e ON e.id = h.entry_id LEFT JOIN works w ON w.id = coalesce(h.work_id, e.work_id)`,
        )
        .get()!;
      expect(events).toMatchObject({ domains: events.n, wrong_domains: 0, wrong_minutes: 0, wrong_pages: 0 });
      expect(events.minutes).toBeGreaterThan(0);
      expect(events.pages).toBeGreaterThan(0);
      // Version 5: each entry's last_activity is its newest dated event, its own or its work's naming no entry.
      const activity = d
        .prepare(
          `SELECT count(last_activity) AS dated, sum(last_activity IS NOT (
             SELECT max(h.date) FROM history h WHERE h.entry_id = e.id OR (h.entry_id IS NULL AND h.work_id = e.work_id))) AS wrong
           FROM entries e`,
        )
        .get()!;
      expect(activity).toMatchObject({ wrong: 0 });
      expect(activity.dated).toBeGreaterThan(0);
    });
    const found = await bed.lk(['sql', '--db', db, '--json', "SELECT title FROM library WHERE title = 'Amélie'"], { key: null });
    expect(JSON.parse(found.stdout)).toEqual([{ title: 'Amélie' }]);
  });

  it('lk next --offline on it before a sync (no last_activity yet) answers as it does once lk sync has upgraded it', async () => {
    const db = copyOfFixture('next-upgraded');
    const next = async () => {
      const run = await bed.lk(['next', '--all', '--offline', '--db', db, '--json'], { key: null });
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout) as { id: string; lastActivity: string | null }[];
    };
    const before = await next();
    expect(userVersion(db)).toBe(0);
    expect((await bed.lk(['sync', '--db', db], { env: { LK_CACHE_DIR: join(dir, 'cache-next') } })).code).toBe(0);
    expect(userVersion(db)).toBe(SCHEMA_VERSION);
    expect(before.filter((item) => item.lastActivity !== null).length).toBeGreaterThan(0);
    expect(await next()).toEqual(before);
  });

  it('lk report on it before a sync says to run lk sync, and leaves it as it was', async () => {
    const db = copyOfFixture('reported');
    const digest = fileDigest(db);
    const run = await bed.lk(['report', '--db', db, '--year', '2026', '--json'], { key: null });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')).toContain(
      'lk: the mirror was made by an older lk (mirror version 0; lk report needs 3): run lk sync to upgrade it in place',
    );
    expect(fileDigest(db)).toBe(digest);
  });

  it('lk report as a process (its figures in a bundle of their own) says the same, with exit 1', async () => {
    const db = copyOfFixture('reported-process');
    const run = await bed.lkProcess(['report', '--db', db, '--year', '2026', '--json'], { key: null });
    expect(run.code).toBe(1);
    expect(run.stderr.split('\n')).toContain(
      'lk: the mirror was made by an older lk (mirror version 0; lk report needs 3): run lk sync to upgrade it in place',
    );
  });

  it('a new mirror starts at the latest version', async () => {
    const db = join(dir, 'new.db');
    const synced = await bed.lk(['sync', '--db', db], { env: { LK_CACHE_DIR: join(dir, 'cache-new') } });
    expect(synced.code, synced.stderr).toBe(0);
    expect(userVersion(db)).toBe(SCHEMA_VERSION);
  });

  describe('a mirror made by a newer lk', () => {
    let db: string;
    let digest: string;
    beforeAll(() => {
      db = copyOfFixture('newer');
      withDb(db, (d) => d.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`), false);
      digest = fileDigest(db);
    });

    for (const args of [['sync'], ['search', 'amelie'], ['sql', 'SELECT 1'], ['library', '--offline']]) {
      it(`lk ${args.join(' ')} refuses it with one line naming both versions, sends no request, and leaves the file as it was`, async () => {
        bed.sandbox.resetCounters();
        const run = await bed.lk([...args, '--db', db], { env: { LK_CACHE_DIR: join(dir, 'cache-newer') } });
        expect(run.code).toBe(1);
        expect(run.stdout).toBe('');
        expect(run.stderr.split('\n')[0]).toBe(
          `lk: the mirror ${db} was made by a newer lk (mirror version ${SCHEMA_VERSION + 1}; this lk knows up to ${SCHEMA_VERSION}): left as it is`,
        );
        expect(bed.sandbox.counters.requests).toBe(0);
        expect(fileDigest(db)).toBe(digest);
      });
    }
  });
});
