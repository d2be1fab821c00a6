import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * vitest's global setup: the whole run gets a temp folder of its own (TMPDIR for every worker and every process a test
 * starts), and the run fails if a test left anything in it. Every test removes what it makes (test/support/temp-dir.ts);
 * this is the check that none forgets, and a leftover never outlives the run.
 */
/** Set while a run's folder exists. */
const OWNED = 'LK_TESTS_TMPDIR';

export default function privateTmpdir(): () => void {
  // Each vitest project runs the global setup: the first makes the folder, the others share it (nested folders would
  // make socket paths too long for tmux and chromium), and the first's teardown, the last to run, checks it.
  if (process.env[OWNED] !== undefined) return () => {};
  const root = mkdtempSync(join(tmpdir(), 'lk-tests-'));
  process.env.TMPDIR = root;
  process.env[OWNED] = root;
  return () => {
    delete process.env[OWNED];
    const left = readdirSync(root);
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
    if (left.length > 0) {
      // A teardown's exception is only printed; the exit code is what fails the run.
      process.exitCode = 1;
      process.stderr.write(
        `\nTests left ${left.length} file(s) in their temp folder (each test removes what it makes): ${left.slice(0, 10).join(', ')}\n`,
      );
    }
  };
}
