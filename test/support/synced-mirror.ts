import { join } from 'node:path';
import { expect } from 'vitest';
import { startTestBed, type TestBed } from '../e2e/harness.js';
import { tempDir } from './temp-dir.js';
import type { Variant } from '../../src/sandbox/variant.js';
import { hasSqlite } from './sqlite-node.js';

/**
 * A sandbox of `entries` entries and, where this Node has node:sqlite, a mirror of it synced at `db` (in a temp folder
 * removed with the test file). For a `beforeAll`; close `bed.sandbox` in `afterAll`.
 */
export async function syncedMirror(entries: number, prefix: string, variant?: Variant): Promise<{ bed: TestBed; dir: string; db: string }> {
  const bed = await startTestBed({ entries, rateLimit: 0, exportIntervalSeconds: 0, ...(variant ? { variant } : {}) });
  const dir = tempDir(prefix);
  const db = join(dir, 'mirror.db');
  if (hasSqlite) {
    const synced = await bed.lk(['sync', '--db', db], { env: { LK_CACHE_DIR: join(dir, 'cache') } });
    expect(synced.code, synced.stderr).toBe(0);
  }
  return { bed, dir, db };
}

/** A query that never ends on its own. */
export const RUNAWAY = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) AS n FROM c';
