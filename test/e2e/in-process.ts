import { PassThrough, Readable } from 'node:stream';
import { runProgram } from '../../src/cli.js';
import { sleep } from '../../src/util/sleep.js';
import type { Factory } from '../../src/context.js';
import type { Waiter } from '../../src/api/client.js';
import { Capture } from '../support/capture.js';

export interface InProcessOptions {
  env: NodeJS.ProcessEnv;
  input?: string;
  /** stdout (and stderr) as a terminal of this many columns; default: both are pipes. */
  tty?: { columns?: number; stderr?: boolean; /** A screen this many lines tall (a real terminal's height; enables the pager). */ rows?: number };
  /** A clock to run on (the sandbox's too, for waits to pass in no time). */
  now?: () => number;
  sleep?: Waiter;
  signal?: AbortSignal;
  /** Told stdout so far after each write: for a run that does not end by itself (lk serve's first line). */
  onStdout?: (text: string) => void;
  /** Told stderr so far after each write: what a run that does not end by itself says meanwhile. */
  onStderr?: (text: string) => void;
}

export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs lk in this process, as the binary would, with fake streams: the exit code and what it wrote. */
export async function runInProcess(args: string[], options: InProcessOptions): Promise<InProcessResult> {
  const stdout = new Capture(Boolean(options.tty), options.tty?.columns ?? 80, options.tty?.rows);
  const stderr = new Capture(Boolean(options.tty && options.tty.stderr !== false), options.tty?.columns ?? 80);
  stdout.onText = options.onStdout;
  stderr.onText = options.onStderr;
  const stdin = Readable.from(options.input === undefined || options.input === '' ? [] : [options.input]) as Readable & { isTTY?: boolean };
  const factory: Factory = {
    stdout,
    stderr,
    stdin: options.input === undefined ? (new PassThrough().end() as PassThrough) : stdin,
    env: options.env,
    argv: ['node', 'lk', ...args],
    now: options.now ?? Date.now,
    sleep: options.sleep ?? sleep,
    signal: options.signal,
  };
  // The time zone is the process's own: the run's TZ applies while it runs, and the worker's comes back after it.
  const zone = process.env.TZ;
  process.env.TZ = options.env.TZ ?? 'UTC';
  try {
    const code = await runProgram(factory.argv, factory);
    return { code, stdout: stdout.text, stderr: stderr.text };
  } finally {
    process.env.TZ = zone;
  }
}
