import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordFailure } from './failure-list.js';

/**
 * vitest's global setup: the whole run gets a temp folder of its own (TMPDIR for every worker and every process a test
 * starts), and the run fails if a test left anything in it. Every test removes what it makes (test/support/temp-dir.ts);
 * this is the check that none forgets, and a leftover never outlives the run.
 */
/** Set while a run's folder exists. */
const OWNED = 'LK_TESTS_TMPDIR';

/**
 * Node's compile cache for every lk process of the run (test/e2e/harness.ts passes it as NODE_COMPILE_CACHE). Each test
 * gives lk a fresh cache folder, where lk keeps its own compile cache: every process would compile the program afresh
 * and write it out, as only a first run ever does (95 ms of CPU for `lk alias list` instead of 60 ms, Node 24). Kept in
 * the run's folder and removed with it; not a leftover of any test.
 */
export const COMPILE_CACHE = 'LK_TESTS_COMPILE_CACHE';
const COMPILE_CACHE_FOLDER = 'node-compile-cache';

export default function privateTmpdir(): () => void {
  // Run more than once in a process (once per vitest project, were the config to have several again), the first makes
  // the folder and the others share it (nested folders would make socket paths too long for tmux and chromium).
  if (process.env[OWNED] !== undefined) return () => {};
  const root = mkdtempSync(join(tmpdir(), 'lk-tests-'));
  process.env.TMPDIR = root;
  process.env[OWNED] = root;
  process.env[COMPILE_CACHE] = join(root, COMPILE_CACHE_FOLDER);
  mkdirSync(process.env[COMPILE_CACHE], { mode: 0o700 });
  return () => {
    delete process.env[OWNED];
    delete process.env[COMPILE_CACHE];
    const left = readdirSync(root).filter((name) => name !== COMPILE_CACHE_FOLDER);
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
    if (left.length > 0) {
      // A teardown's exception is only printed; the exit code is what fails the run.
      process.exitCode = 1;
      const said = `Tests left ${left.length} file(s) in their temp folder (each test removes what it makes): ${left.slice(0, 10).join(', ')}`;
      process.stderr.write(`\n${said}\n`);
      recordFailure(said);
    }
  };
}
