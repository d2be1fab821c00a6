import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    // A temp folder of the run's own, checked empty at the end (test/support/private-tmpdir.ts).
    globalSetup: ['test/support/private-tmpdir.ts'],
    // The default report, then one line naming the tests skipped for want of an outside tool (test/support/).
    reporters: ['default', './test/support/skip-summary.ts'],
    // Most test time is spent waiting on child processes and sockets, not on this process's CPU: on a 2-core
    // machine, four files at once finish sooner than vitest's default of one.
    maxWorkers: 4,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
