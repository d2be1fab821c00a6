import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The suite in groups by what a test needs from outside lk's own process. `LK_TESTS=in-process vitest run` is the quick
 * check after a change (npm run test:quick); `LK_TESTS=processes,signals` runs those two; `npm test` runs them all. A
 * new test file lands in `in-process` unless it is named below.
 *
 * Groups, not vitest projects: each project is a Vite server of its own, which transforms and a worker imports lk's
 * sources once per project. As one project the whole suite took 250 s of CPU instead of 293 s (vitest's transform
 * 16 s instead of 81 s, import 15 s instead of 43 s; Node 24, 2026-11-28) — on two cores, CPU is the suite's time.
 */
const NEEDS = {
  /** Signals sent to real lk processes: the exit code and what is left on disk after SIGINT, SIGTERM, SIGHUP. */
  signals: [
    'test/e2e/temporary-files-signals.test.ts',
    'test/e2e/export-signals.test.ts',
    'test/e2e/resilience.test.ts',
    'test/e2e/hostile.test.ts',
    'test/mirror/sql-safety.test.ts',
    'test/mirror/mirror-reads.test.ts',
    'test/mirror/mcp-process.test.ts',
    'test/mirror/mirror-files.test.ts',
    'test/e2e/export-git.test.ts',
    'test/e2e/export-git-private.test.ts',
    'test/mirror/serve-process.test.ts',
    'test/mirror/sql-blobs.test.ts',
    'test/mirror/notify-signals.test.ts',
    'test/e2e/alias-signals.test.ts',
  ],
  /** A real terminal (tmux, script) or a shell (bash, zsh, fish completions). */
  terminals: [
    'test/e2e/terminal.test.ts',
    'test/e2e/terminal-listings.test.ts',
    'test/e2e/pretty-json.test.ts',
    'test/e2e/login-prompt.test.ts',
    'test/e2e/output.test.ts',
    // lk completion's own output through lk as a process, and the scripts installed as docs/install.md says, in bash
    // (bash-completion) and zsh
    'test/e2e/completion.test.ts',
    'test/e2e/completion-bash.test.ts',
    'test/e2e/completion-zsh.test.ts',
    'test/e2e/completion-fish.test.ts',
  ],
  /** The network's own tools: TLS (openssl), a proxy (tinyproxy), the keyring (gnome-keyring, dbus), a browser. */
  network: [
    'test/e2e/tls.test.ts',
    'test/e2e/proxy.test.ts',
    'test/e2e/hostile-proxy.test.ts',
    'test/e2e/transports.test.ts',
    'test/e2e/doctor.test.ts',
    'test/e2e/keyring.test.ts',
    'test/mirror/serve.test.ts',
    'test/mirror/notify-tls.test.ts',
    // apprise, as a person runs it, and a real SMTP server's answers
    'test/mirror/notify-services.test.ts',
  ],
  /**
   * The report page rendered in Debian's chromium: what it tests is the page lk writes and the browser, which no Node
   * line changes, so .ci/run runs it once (npm test, on 24), not again on 20, 22, 26 and the single file.
   */
  browser: ['test/e2e/report-browser.test.ts', 'test/e2e/site-browser.test.ts', 'test/mirror/cards.test.ts'],
  /** Real lk processes for start-up, files and streams (no signal, no terminal). */
  processes: [
    'test/e2e/diff-pipes.test.ts',
    'test/e2e/compile-cache.test.ts',
    'test/e2e/lazy-loading.test.ts',
    'test/e2e/demo.test.ts',
    'test/e2e/package.test.ts',
    'test/e2e/convert.test.ts',
    'test/e2e/output-files.test.ts',
    'test/e2e/output-own-stream.test.ts',
    'test/e2e/install-script.test.ts',
    'test/mirror/mcp-process-2026.test.ts',
    'test/mirror/mcp-http.test.ts',
    'test/e2e/mcpb.test.ts',
    'test/mirror/offline-parity.test.ts',
    'test/mirror/migrations.test.ts',
    'test/mirror/mirror.test.ts',
    'test/mirror/sync-race.test.ts',
    'test/e2e/alias-processes.test.ts',
    // lk notify and lk serve --notify as processes beside slow and hostile targets, and apprise
    'test/mirror/notify-hardening.test.ts',
  ],
};

const ALL = 'test/**/*.test.ts';

/**
 * Left out when the tests start the single file (LK_TEST_BINARY, .ci/run): they test the npm package and its launcher
 * under node, not the single file — which dist/ files a run loads, Node's compile cache, npm run demo, the packed
 * tarball installed.
 */
const NODE_LAUNCHER_ONLY = ['test/e2e/lazy-loading.test.ts', 'test/e2e/compile-cache.test.ts', 'test/e2e/demo.test.ts', 'test/e2e/package.test.ts'];

type Group = keyof typeof NEEDS | 'in-process';
const GROUPS: Group[] = ['in-process', ...(Object.keys(NEEDS) as (keyof typeof NEEDS)[])];

/** The groups LK_TESTS names (comma-separated), all when it is unset; a name that is none of them stops the run. */
function chosenGroups(names = process.env.LK_TESTS): Group[] {
  if (!names) return GROUPS;
  const chosen = names.split(',').map((name) => name.trim());
  const unknown = chosen.filter((name) => !(GROUPS as string[]).includes(name));
  if (unknown.length > 0) throw new Error(`LK_TESTS: no group ${unknown.join(', ')} (the groups: ${GROUPS.join(', ')})`);
  return chosen as Group[];
}

/**
 * Files run at once. Most of the whole suite's time is spent waiting on child processes and sockets, not on vitest's
 * own CPU: on a 2-core machine, four files at once finish sooner than vitest's default of one. The in-process tests
 * alone (npm run test:quick) are the other way round, CPU in vitest's workers: a worker per core, each importing lk
 * once — on 2 cores two workers took 59–76 s of CPU where four took 70–92 s, and the run was no slower (Node 24,
 * 2026-11-29).
 */
function workersFor(groups: Group[]): number {
  return groups.length === 1 && groups[0] === 'in-process' ? Math.max(2, availableParallelism()) : 4;
}

/** The files of the chosen groups: `in-process` is every file no other group names. */
function selection(groups: Group[]): { include: string[]; exclude: string[] } {
  const named = Object.entries(NEEDS);
  const notHere = process.env.LK_TEST_BINARY ? NODE_LAUNCHER_ONLY : [];
  if (groups.includes('in-process')) {
    const left = named.filter(([group]) => !groups.includes(group as Group)).flatMap(([, files]) => files);
    return { include: [ALL], exclude: [...left, ...notHere] };
  }
  return { include: named.filter(([group]) => groups.includes(group as Group)).flatMap(([, files]) => files), exclude: notHere };
}

export default defineConfig({
  test: {
    setupFiles: ['test/setup.ts'],
    // A temp folder of the run's own, checked empty at the end (test/support/private-tmpdir.ts).
    globalSetup: ['test/support/private-tmpdir.ts'],
    // The default report, then a line counting the tests skipped for want of node:sqlite (Node 22.13) and one naming
    // those skipped for want of an outside tool (test/support/); the failed tests' list for .ci/run's last lines.
    reporters: ['default', './test/support/skip-summary.ts', './test/support/failure-list.ts'],
    maxWorkers: workersFor(chosenGroups()),
    // A worker runs its files one after another in one module graph instead of importing lk afresh for each file: the
    // in-process project's CPU went from 127 s to 84 s (user and system, Node 24). Safe because lk keeps no state between runs (a file
    // already runs the program hundreds of times in one process) and no test mocks a module; test/setup.ts runs for
    // every file, so each still removes its temp folders and sees TZ=UTC.
    isolate: false,
    // `npm run test:coverage`: the lines of src/ the tests run in vitest's own processes (lk started as a process runs
    // dist/, which no coverage sees).
    coverage: { provider: 'v8', include: ['src/**'], reporter: ['text-summary'] },
    // lk's sources as vitest transformed them, kept between runs by content hash (vitest's fsModuleCache, marked
    // experimental): the in-process tests' second run took 38–40 s instead of 45–49 s, 66 s of CPU instead of 82
    // (Node 24). The cache is .tmp/cache/vitest, beside the linters'; `rm -rf .tmp/cache` forgets it.
    experimental: { fsModuleCache: true, fsModuleCachePath: '.tmp/cache/vitest' },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    ...selection(chosenGroups()),
  },
});
