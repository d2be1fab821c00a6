import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished, TestRunner } from 'vitest';

const untilFileEnds = new Set<string>();

/**
 * A fresh folder in the system temp folder, removed when its test ends, or, made outside a test (a `beforeAll`, a
 * describe body), when its test file ends (`removeFileTempDirs`, registered for every file in test/setup.ts).
 */
export function tempDir(prefix = 'lk-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (TestRunner.getCurrentTest()) onTestFinished(() => remove(dir));
  else untilFileEnds.add(dir);
  return dir;
}

/** Removes the folders made outside a test: run once the file's own `afterAll` hooks are done with them. */
export function removeFileTempDirs(): void {
  for (const dir of untilFileEnds) remove(dir);
  untilFileEnds.clear();
}

function remove(dir: string): void {
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}
