import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBed, tempHome, type TestBed } from './harness.js';

/** bin/lk.cjs turns on Node's compile cache (Node 22.1+) in lk's cache folder. A real process: it is the launcher's. */
let bed: TestBed;

beforeAll(async () => {
  bed = await startTestBed({ entries: 5, rateLimit: 0 });
});

afterAll(async () => {
  await bed.sandbox.close();
});

describe('the compile cache', () => {
  const supported = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';

  it(`is kept under the cache folder, in a folder of this Node version's own${supported ? '' : ' (none on a Node without it)'}`, async () => {
    const home = tempHome();
    const run = await bed.lkProcess(['whoami', '--json'], { env: { LK_CACHE_DIR: home.cacheDir, NODE_COMPILE_CACHE: undefined } });
    expect(run.code).toBe(0);
    const folder = join(home.cacheDir, 'compile');
    if (!supported) {
      expect(existsSync(folder)).toBe(false);
      return;
    }
    const versions = readdirSync(folder);
    expect(versions).toHaveLength(1);
    expect(versions[0]).toContain(`v${process.versions.node}`);
    expect(readdirSync(join(folder, versions[0]!)).length).toBeGreaterThan(0);
  });

  it('is never a reason to fail: a compile folder that cannot be made leaves lk working', async () => {
    const home = tempHome();
    mkdirSync(home.cacheDir, { recursive: true });
    writeFileSync(join(home.cacheDir, 'compile'), 'a file where the folder would go');
    const run = await bed.lkProcess(['whoami', '--json'], { env: { LK_CACHE_DIR: home.cacheDir, NODE_COMPILE_CACHE: undefined } });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toHaveProperty('account');
  });
});
