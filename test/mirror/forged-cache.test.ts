import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeHasSqlite } from '../../src/mirror/open.js';
import { sha256Hex } from '../../src/util/hash.js';
import { startTestBed, type TestBed } from '../e2e/harness.js';

// Issue 24, item 5: a cache folder others can write holding a forged cached export. lk export refused the folder,
// lk sync warned "not using the cache" and then synced from it.

let bed: TestBed;
let root: string;

beforeAll(async () => {
  bed = await startTestBed({ entries: 12 });
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

describe.runIf(nodeHasSqlite())('a forged cached export in a cache folder others can write', () => {
  it('lk sync does not read it, and lk sql returns none of the forger’s rows', async () => {
    const cacheDir = join(root, 'cache');
    const db = join(root, 'mirror.db');
    const env = { LK_CACHE_DIR: cacheDir };
    const exported = await bed.lk(['export', '-o', join(root, 'export.json')], { env });
    expect(exported.code, exported.stderr).toBe(0);
    forgeCachedExport(cacheDir);
    chmodSync(cacheDir, 0o777);

    const synced = await bed.lk(['sync', '--db', db], { env });
    expect(synced.code, synced.stderr).toBe(0);
    expect(synced.stderr).toContain(`${cacheDir} is writable by other users`);
    expect(synced.stderr).not.toContain('from the cached export');

    const rows = await bed.lk(['sql', '--db', db, '--json', "SELECT id FROM entries WHERE id = 'forged-entry'"], { env });
    expect(rows.code, rows.stderr).toBe(0);
    expect(JSON.parse(rows.stdout)).toEqual([]);
    const all = await bed.lk(['sql', '--db', db, '--json', 'SELECT count(*) AS n FROM entries'], { env });
    expect(JSON.parse(all.stdout)).toEqual([{ n: bed.sandbox.entryIds('demo').length }]);
  });
});
