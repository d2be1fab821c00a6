// Shared pieces of the benchmarks: the sandbox in this process, whole-process timing, medians, a clean environment.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const lkBin = join(root, 'bin/lk.cjs');
export const peakRssPreload = join(root, 'bench/peak-rss.mjs');

/** A scratch folder removed by `cleanup()`. */
export function scratch(prefix = 'lk-bench-') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

let sandboxModule;
/** The sandbox is TypeScript: bundle it once per process, then start it in this process (its counters are readable). */
export async function startSandbox(options) {
  if (!sandboxModule) {
    const { dir, cleanup } = scratch('lk-bench-sandbox-');
    // Kept while this process may still load from it, gone when it ends (one folder per run of the bench was left).
    process.once('exit', cleanup);
    const outfile = join(dir, 'sandbox.mjs');
    await build({
      entryPoints: [join(root, 'src/sandbox/index.ts')],
      outfile,
      bundle: true,
      format: 'esm',
      platform: 'node',
      packages: 'external',
      logLevel: 'warning',
      absWorkingDir: root,
    });
    sandboxModule = await import(pathToFileURL(outfile).href);
  }
  return sandboxModule.startSandbox({ port: 0, ...options });
}

/**
 * The environment of every measured process: no NODE_EXTRA_CA_CERTS (it adds ~50 ms to each Node start on some
 * machines, on both sides of a ratio), a private config and cache, and the sandbox's URL and key.
 */
export function cleanEnv(extra = {}) {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, LANG: 'C.UTF-8' };
  return { ...env, ...extra };
}

export function lkEnv(sandbox, dir, extra = {}) {
  return cleanEnv({
    LK_BASE_URL: sandbox.url,
    LK_API_KEY: sandbox.key('full'),
    LK_CONFIG_DIR: join(dir, 'config'),
    LK_CACHE_DIR: join(dir, 'cache'),
    ...extra,
  });
}

/**
 * Runs a whole process to its end and measures it: wall time in ms, the bytes of stdout (consumed, not kept), with
 * `digest` their SHA-256, and with `peakRss` the child's own peak resident set size (reported by
 * bench/peak-rss.mjs on fd 3).
 */
export function run(command, args, { env, peakRss = false, stdin = 'ignore', digest = false } = {}) {
  const argv = peakRss && command === process.execPath ? ['--import', pathToFileURL(peakRssPreload).href, ...args] : args;
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, argv, { env, stdio: [stdin, 'pipe', 'pipe', 'pipe'] });
    let bytes = 0;
    let lines = 0;
    const hash = digest ? createHash('sha256') : undefined;
    let stderr = '';
    let rssText = '';
    child.stdout.on('data', (chunk) => {
      bytes += chunk.length;
      hash?.update(chunk);
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines += 1;
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdio[3].on('data', (chunk) => (rssText += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr.trim().slice(0, 500)}`));
      else resolve({ ms, bytes, lines, stderr, sha256: hash?.digest('hex'), peakRssMb: rssText ? Number(rssText) / 1024 / 1024 : undefined });
    });
  });
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Runs each candidate `runs` times, interleaved (a, b, c, a, b, c, …) so that a noisy moment of the machine hits all
 * of them alike; returns the median of each.
 */
export async function interleaved(candidates, runs, measure = (result) => result.ms) {
  const samples = candidates.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (const [index, candidate] of candidates.entries()) samples[index].push(measure(await candidate()));
  }
  return samples.map((values) => ({ median: median(values), samples: values }));
}

/** One row of the results table. */
export function row(figure, value, target, pass) {
  return { figure, value, target, pass };
}

/**
 * Start-up ratios are judged only on a quiet machine: when `node -e 0` takes longer than this, load stretches the floor
 * more than lk's own work and every ratio shrinks toward 1 (1.62× taken at 83–103 ms was 1.9× at 30 ms).
 */
const QUIET_FLOOR_MS = 35;

/** A start-up row with a target: as measured while the floor was quiet; else its milliseconds alone, not judged. */
export function startupRow(figure, value, target, pass, { floorMs, plain }) {
  if (floorMs <= QUIET_FLOOR_MS) return row(figure, value, target, pass);
  return {
    figure,
    value: `${plain}; no ratio: node -e 0 took ${ms(floorMs)} (over ${QUIET_FLOOR_MS} ms, a loaded machine)`,
    target,
    pass: false,
    unjudged: true,
  };
}

export const ms = (value) => `${value.toFixed(0)} ms`;
export const ratio = (value) => `${value.toFixed(2)}×`;
