import type { RunResult, TestBed } from '../e2e/harness.js';
import { until } from './until.js';

/** A running `lk serve`: its address (the first line it writes), and how to stop it (its run's result). */
export interface Serving {
  url: string;
  stop(): Promise<RunResult>;
}

/**
 * `lk serve --port 0 ARGS…` in this process, with no key unless `options` gives one, until stop(): resolved once its
 * first stdout line (the address) is written; a serve that ends before that fails, with its exit code and stderr.
 */
export async function serveInProcess(bed: TestBed, args: string[], options: Parameters<TestBed['lk']>[1] = {}): Promise<Serving> {
  const abort = new AbortController();
  let stdout = '';
  let ended: RunResult | undefined;
  const run = bed
    .lk(['serve', '--port', '0', ...args], { key: null, ...options, signal: abort.signal, onStdout: (text) => (stdout = text) })
    .then((result) => (ended = result));
  await until(() => stdout.includes('\n') || ended !== undefined);
  if (ended) throw new Error(`lk serve ended (${ended.code}): ${ended.stderr}`);
  return { url: stdout.split('\n')[0]!, stop: () => (abort.abort(), run) };
}
