import { spawn, type ChildProcessByStdio, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Readable } from 'node:stream';
import { expect } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { runInProcess, type InProcessOptions } from './in-process.js';
import { tempDir } from '../support/temp-dir.js';

export const LK_BIN = fileURLToPath(new URL('../../bin/lk.cjs', import.meta.url));

/**
 * The one place that decides how a test starts lk as a process: `node bin/lk.cjs` on the Node running the tests, or,
 * when LK_TEST_BINARY names it, the single file alone (npm run sea; .ci/run runs the end-to-end and mirror tests so).
 */
export const LK_COMMAND: readonly [string, ...string[]] = process.env.LK_TEST_BINARY
  ? [resolve(process.env.LK_TEST_BINARY)]
  : [process.execPath, LK_BIN];

/** spawn()'s command and arguments for lk with `args`. */
export function lkSpawnArgs(args: string[]): [string, string[]] {
  const [command, ...before] = LK_COMMAND;
  return [command, [...before, ...args]];
}

export const shellQuote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/** lk with `args` as a shell command line (sh, bash, tmux), every word quoted. */
export function lkShellCommand(args: string[] = []): string {
  return [...LK_COMMAND, ...args].map(shellQuote).join(' ');
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Extra environment; `undefined` values remove a variable. */
  env?: Record<string, string | undefined>;
  input?: string;
  timeoutMs?: number;
  /** Options for node itself, before the script (e.g. `--import` a preload). */
  nodeArgs?: string[];
  /** In-process only: stdout and stderr as terminals (see in-process.ts). */
  tty?: InProcessOptions['tty'];
  /** Process only: the folder lk starts in (this process's own by default). */
  cwd?: string;
}

/** A fresh config and cache folder, so that no test sees another's state (or the developer's own). */
export function tempHome(): { configDir: string; cacheDir: string; root: string } {
  const root = tempDir('lk-test-');
  return { root, configDir: join(root, 'config'), cacheDir: join(root, 'cache') };
}

/**
 * Runs the built binary as a child process. Asynchronous on purpose: the sandbox lives in this process, and a
 * synchronous spawn would block the event loop that has to answer the child's requests.
 */
export function runLk(args: string[], options: RunOptions = {}): Promise<RunResult> {
  const env = runEnv(options);
  const child = spawnLk(args, options.nodeArgs ?? [], env, options.cwd);
  // A program that exits without reading its stdin (lk completion answers from its arguments) closes the pipe
  // first: the input it did not want is no failure of the test.
  child.stdin.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  child.stdin.end(options.input ?? '');
  return outputOf(child, options.timeoutMs);
}

/**
 * Node's own options (a preload) go before the script under node; the single file takes no options of Node's on its
 * command line, only from NODE_OPTIONS (its default execArgvExtension, "env").
 */
function spawnLk(args: string[], nodeArgs: string[], env: NodeJS.ProcessEnv, cwd?: string): ChildProcessWithoutNullStreams {
  if (process.env.LK_TEST_BINARY && nodeArgs.length > 0) {
    const nodeOptions = [env.NODE_OPTIONS ?? '', ...nodeArgs.map((word) => JSON.stringify(word))].join(' ').trim();
    return spawn(...lkSpawnArgs(args), { env: { ...env, NODE_OPTIONS: nodeOptions }, stdio: ['pipe', 'pipe', 'pipe'], cwd });
  }
  const [command, ...before] = LK_COMMAND;
  return spawn(command, [...nodeArgs, ...before, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'], cwd });
}

/** A child's exit code and whole stdout and stderr, once it ends; killed if it runs past `timeoutMs`. */
export function outputOf(
  child: ChildProcessWithoutNullStreams | ChildProcessByStdio<null, Readable, Readable>,
  timeoutMs = 60_000,
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A sandbox plus a runner preset with its URL, a demo key and private config/cache folders. */
export interface TestBed {
  sandbox: Sandbox;
  home: ReturnType<typeof tempHome>;
  /** The clock the sandbox and `lk` (in process) share; null where the test asked for real time. */
  clock: VirtualClock | null;
  env(keyName?: string | null): Record<string, string | undefined>;
  /** lk in this process (fake streams): the default for behaviour. */
  lk(args: string[], options?: RunOptions & Omit<InProcessOptions, 'env' | 'input' | 'tty'> & { key?: string | null }): Promise<RunResult>;
  /** lk as a real child process: for what only a process shows (exit on signals, real files and terminals). */
  lkProcess(args: string[], options?: RunOptions & { key?: string | null }): Promise<RunResult>;
}

/**
 * The run's warm compile cache, as a user's lk has after its first run (test/support/private-tmpdir.ts): each test
 * gives lk a fresh cache folder, where lk would otherwise compile the program afresh every time.
 */
function sharedCompileCache(): { NODE_COMPILE_CACHE?: string } {
  return process.env.LK_TESTS_COMPILE_CACHE ? { NODE_COMPILE_CACHE: process.env.LK_TESTS_COMPILE_CACHE } : {};
}

/** The environment a run sees: the test's own, never the developer's. */
function runEnv(options: RunOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    ...sharedCompileCache(),
  };
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/** Runs lk in this process with fake streams (see in-process.ts): the same contract as runLk, in milliseconds. */
export function runLkInProcess(args: string[], options: RunOptions & Omit<InProcessOptions, 'env' | 'input' | 'tty'> = {}): Promise<RunResult> {
  const { env: _env, input, timeoutMs: _timeout, nodeArgs: _nodeArgs, cwd: _cwd, ...rest } = options;
  return runInProcess(args, { ...rest, env: runEnv(options), ...(input === undefined ? {} : { input }) });
}

/**
 * Time as both the sandbox and lk see it: the real clock plus whatever lk has waited. A wait (the rate limit, a
 * retry's backoff) moves it forward at once instead of sleeping, so a test of a minute's window takes milliseconds.
 */
export interface VirtualClock {
  now: () => number;
  sleep: (ms: number, reason?: string, signal?: AbortSignal) => Promise<void>;
  /** How far ahead of the real clock it runs (ms). */
  readonly shift: number;
}

export function virtualClock(initialShiftMs = 0): VirtualClock {
  let shift = initialShiftMs;
  return {
    now: () => Date.now() + shift,
    sleep: async (ms, _reason, signal) => {
      signal?.throwIfAborted();
      shift += Math.max(0, ms);
      // Let the other pages and timers of the run have their turn, as a real wait would.
      await new Promise((resolve) => setImmediate(resolve));
      signal?.throwIfAborted();
    },
    get shift() {
      return shift;
    },
  };
}

/**
 * A virtual clock that starts at `instant` (ms) whatever the real date: for a test whose data depends on "now" (the
 * sandbox anchors its data to the day it starts on, and its shows air at fixed hours of that day).
 */
export function virtualClockAt(instant: number): VirtualClock {
  return virtualClock(instant - Date.now());
}

export async function startTestBed(
  options: SandboxOptions & { clock?: VirtualClock | null; /** Added to every run's environment. */ env?: Record<string, string> } = {},
): Promise<TestBed> {
  // A virtual clock unless the test brings its own sandbox clock (or asks for real time with null).
  const { clock = options.now ? null : virtualClock(), env: bedEnv = {}, ...sandboxOptions } = options;
  const sandbox = await startSandbox({ port: 0, ...(clock ? { now: clock.now } : {}), ...sandboxOptions });
  const home = tempHome();
  const env = (keyName: string | null = 'full') => ({
    ...bedEnv,
    // for the processes a test starts with an environment of its own
    ...sharedCompileCache(),
    LK_BASE_URL: sandbox.url,
    LK_API_KEY: keyName === null ? undefined : sandbox.key(keyName),
    LK_CONFIG_DIR: home.configDir,
    LK_CACHE_DIR: home.cacheDir,
  });
  return {
    sandbox,
    home,
    clock,
    env,
    lk: (args, runOptions = {}) =>
      runLkInProcess(args, {
        ...(clock ? { now: clock.now, sleep: clock.sleep } : {}),
        ...runOptions,
        env: { ...env(runOptions.key === undefined ? 'full' : runOptions.key), ...runOptions.env },
      }),
    lkProcess: (args, runOptions = {}) =>
      runLk(args, { ...runOptions, env: { ...env(runOptions.key === undefined ? 'full' : runOptions.key), ...runOptions.env } }),
  };
}

/** Parses ndjson output into objects. */
export function ndjsonLines(text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}

/** A usage error caught before any request: exit 2, nothing on stdout, one `lk:` line, and the sandbox saw nothing. */
export async function expectRefusedBeforeAnyRequest(bed: TestBed, args: string[]): Promise<void> {
  bed.sandbox.resetCounters();
  const result = await bed.lk(args);
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(/^lk: /);
  expect(bed.sandbox.counters.requests).toBe(0);
}

/** Every listing command, with the ids it needs filled in from the bed's own data (its sandbox variant's ids). */
export async function listingCommands(bed: TestBed): Promise<string[][]> {
  const entry = bed.sandbox.entryIds('demo')[0]!;
  const lists = JSON.parse((await bed.lk(['lists', '--json'])).stdout) as Array<{ id: string }>;
  return [
    ['library'],
    ['library', '--phase', 'DONE', '--domain', 'MEDIA'],
    ['library', 'history', entry],
    ['history'],
    ['lists'],
    ['lists', 'show', lists[0]!.id],
    ['reviews'],
    ['notifications'],
    ['calendar'],
    ['profile', 'achievements'],
  ];
}
