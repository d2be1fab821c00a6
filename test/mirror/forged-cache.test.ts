import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/util/hash.js';
import { startTestBed, type TestBed } from '../e2e/harness.js';
import { itWithSqlite } from '../support/sqlite-node.js';

// Issue 24, item 5: a cache folder others can write holding a forged cached export. lk export refused the folder,
// lk sync warned "not using the cache" and then synced from it.

let bed: TestBed;
let root: string;

beforeAll(async () => {
  bed = await startTestBed({ entries: 12, exportIntervalSeconds: 0 });
  root = mkdtempSync(join(tmpdir(), 'lk-forged-'));
});

afterAll(async () => {
  await bed.sandbox.close();
  rmSync(root, { recursive: true, force: true });
});

/** Replaces the cached export with the forger's, its metadata vouching for it (the digest is no secret). */
function forgeCachedExport(cacheDir: string): void {
  const instances = join(cacheDir, 'exports');
  const instance = readdirSync(instances)[0]!;
  const account = readdirSync(join(instances, instance, 'accounts'))[0]!;
  const dir = join(instances, instance, 'accounts', account);
  const real = JSON.parse(readFileSync(join(dir, 'export.json'), 'utf8')) as Record<string, unknown>;
  const forged = JSON.stringify({
    ...real,
    library: [{ id: 'forged-entry', title: 'Planted by another user', status: 'COMPLETED', domain: 'MEDIA' }],
  });
  writeFileSync(join(dir, 'export.json'), forged);
  const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(dir, 'meta.json'), JSON.stringify({ ...meta, bytes: Buffer.byteLength(forged), sha256: sha256Hex(forged) }));
}

describe('a forged cached export in a cache folder others can write', () => {
  const cacheDir = () => join(root, 'cache');

  it('lk export refuses the folder and fetches the export from the server', async () => {
    const env = { LK_CACHE_DIR: cacheDir() };
    const first = await bed.lk(['export', '-o', join(root, 'first.json')], { env });
    expect(first.code, first.stderr).toBe(0);
    forgeCachedExport(cacheDir());
    chmodSync(cacheDir(), 0o777);
    bed.sandbox.resetCounters();
    const again = await bed.lk(['export', '-o', join(root, 'again.json')], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`${cacheDir()} is writable by other users`);
    expect(readFileSync(join(root, 'again.json'), 'utf8')).not.toContain('forged-entry');
  });

  // node:sqlite (the mirror) needs Node 22.13; on older Node lk sync refuses altogether (test/mirror/mirror.test.ts).
  itWithSqlite('lk sync does not read it, and lk sql returns none of the forger’s rows', async () => {
    const db = join(root, 'mirror.db');
    const env = { LK_CACHE_DIR: cacheDir() };
    const synced = await bed.lk(['sync', '--db', db], { env });
    expect(synced.code, synced.stderr).toBe(0);
    expect(synced.stderr).toContain(`${cacheDir()} is writable by other users`);
    expect(synced.stderr).not.toContain('from the cached export');

    const rows = await bed.lk(['sql', '--db', db, '--json', "SELECT id FROM entries WHERE id = 'forged-entry'"], { env });
    expect(rows.code, rows.stderr).toBe(0);
    expect(JSON.parse(rows.stdout)).toEqual([]);
    const all = await bed.lk(['sql', '--db', db, '--json', 'SELECT count(*) AS n FROM entries'], { env });
    expect(JSON.parse(all.stdout)).toEqual([{ n: bed.sandbox.entryIds('demo').length }]);
  });
});
