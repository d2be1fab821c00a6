// Concurrent paging vs one page at a time (not part of npm test).
//
//   npm run build && node bench/paging.mjs [runs]
//
// A sandbox with 5,000 entries (50 pages of 100), the rate limit lifted and 100 ms of latency added to every request
// serves `lk library --all --ndjson` several times with the default concurrency and several times with
// LK_PAGING_CONCURRENCY=1 (the hidden switch that pages one at a time); prints the median wall time of each and their
// ratio. Target: concurrent ≤ 0.4 × sequential.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const runs = Number(process.argv[2] ?? 5);
const work = mkdtempSync(join(tmpdir(), 'lk-bench-'));

// The sandbox is TypeScript: bundle it once for this process.
const sandboxModule = join(work, 'sandbox.mjs');
await build({ entryPoints: [join(root, 'src/sandbox/index.ts')], outfile: sandboxModule, bundle: true, format: 'esm', platform: 'node', packages: 'external', logLevel: 'warning', absWorkingDir: root });
const { startSandbox } = await import(pathToFileURL(sandboxModule).href);
const sandbox = await startSandbox({ port: 0, entries: 5000, rateLimit: 0, faults: { latencyMs: 100 } });

function timeRun(concurrency) {
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LK_BASE_URL: sandbox.url,
    LK_API_KEY: sandbox.key('full'),
    LK_CONFIG_DIR: join(work, 'config'),
    LK_CACHE_DIR: join(work, 'cache'),
    ...(concurrency ? { LK_PAGING_CONCURRENCY: String(concurrency) } : {}),
  };
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [join(root, 'bin/lk.js'), 'library', '--all', '--ndjson'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let lines = 0;
    child.stdout.on('data', (chunk) => (lines += chunk.toString().split('\n').length - 1));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0 || lines !== 5000) reject(new Error(`lk exited ${code} with ${lines} lines`));
      else resolve(Number(process.hrtime.bigint() - started) / 1e6);
    });
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

try {
  const concurrent = [];
  const sequential = [];
  for (let i = 0; i < runs; i++) {
    concurrent.push(await timeRun(undefined));
    sequential.push(await timeRun(1));
  }
  const c = median(concurrent);
  const s = median(sequential);
  console.log(`lk library --all --ndjson, 50 pages, 100 ms latency, ${runs} runs each`);
  console.log(`  concurrent (default): median ${c.toFixed(0)} ms  [${concurrent.map((v) => v.toFixed(0)).join(', ')}]`);
  console.log(`  one page at a time:   median ${s.toFixed(0)} ms  [${sequential.map((v) => v.toFixed(0)).join(', ')}]`);
  console.log(`  ratio: ${(c / s).toFixed(2)}× (target ≤ 0.40×)`);
} finally {
  await sandbox.close();
  rmSync(work, { recursive: true, force: true });
}
