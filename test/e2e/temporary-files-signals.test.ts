import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBed, type TestBed } from './harness.js';

/**
 * A SIGTERM while lk creates a temporary file leaves nothing behind (issue 24, item 7). The preload sends the signal
 * at that very moment, and makes an asynchronous creation finish as the process exits, as the thread pool would.
 */

const PRELOAD = fileURLToPath(new URL('../fixtures/sigterm-at-temporary-create.cjs', import.meta.url));

let bed: TestBed;
const folders: string[] = [];

beforeAll(async () => {
  bed = await startTestBed({ rateLimit: 0, exportIntervalSeconds: 0 });
});
afterAll(async () => {
  await bed.sandbox.close();
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lk-sigterm-open-'));
  folders.push(dir);
  return dir;
}

describe('a SIGTERM that lands while the temporary file is created', () => {
  it.each([
    ['-o FILE', (dir: string) => ['library', '--limit', '3', '-o', join(dir, 'out.tsv')]],
    ['export --output-dir', (dir: string) => ['export', '--output-dir', dir]],
    ['export --format csv --output-dir (a folder)', (dir: string) => ['export', '--format', 'csv', '--output-dir', dir]],
  ])('%s: exit 143 and the folder left empty', async (_name, args) => {
    const dir = scratch();
    const result = await bed.lkProcess(args(dir), { nodeArgs: ['--require', PRELOAD], env: { LK_TEST_SIGTERM_DIR: dir } });
    expect(result.code, result.stderr).toBe(143);
    expect(readdirSync(dir)).toEqual([]);
  });
});
