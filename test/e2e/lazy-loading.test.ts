import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLk, startTestBed, type RunOptions, type TestBed } from './harness.js';

const PRELOAD = fileURLToPath(new URL('../fixtures/record-imports.mjs', import.meta.url));
const FAKE_TTY = fileURLToPath(new URL('../fixtures/fake-tty.mjs', import.meta.url));
const HEAVY = ['commander', 'undici', 'ora', 'cli-table3', 'csv-stringify', 'string-width', 'conf', 'picocolors'];

let bed: TestBed;
let counter = 0;

beforeAll(async () => {
  bed = await startTestBed({ entries: 30, rateLimit: 0 });
});

afterAll(async () => {
  await bed.sandbox.close();
});

/** Runs lk and returns the packages it imported (their root names), and the run itself. */
async function importsOf(args: string[], options: RunOptions = {}) {
  const file = join(bed.home.root, `imports-${counter++}.txt`);
  writeFileSync(file, '');
  const run = await bed.lkProcess(args, {
    ...options,
    nodeArgs: ['--import', PRELOAD, ...(options.nodeArgs ?? [])],
    env: { ...options.env, LK_TEST_IMPORTS: file },
  });
  const files = new Set(readFileSync(file, 'utf8').split('\n').filter(Boolean));
  const packages = new Set([...files].map((specifier) => specifier.split('/')[0]!));
  return { run, packages, files };
}

describe('start-up loads only what the command uses', () => {
  it('the recorder itself works: lk whoami imports commander', async () => {
    const { run, packages } = await importsOf(['whoami', '--json']);
    expect(run.code).toBe(0);
    expect(packages).toContain('commander');
  });

  it("the program bundles undici's Agent and request API, not its index (fetch, WebSocket, cookies, caches, mocks), and HTTP/2 on first use", () => {
    // esbuild names every bundled module in a comment: dist/cli.cjs says what it holds.
    const bundle = readFileSync(fileURLToPath(new URL('../../dist/cli.cjs', import.meta.url)), 'utf8');
    const bundled = new Set([...bundle.matchAll(/^\/\/ node_modules\/(undici\/\S+)$/gm)].map((match) => match[1]!));
    expect(bundled).toContain('undici/lib/dispatcher/agent.js');
    expect(bundled).toContain('undici/lib/api/api-request.js');
    for (const heavy of [
      'undici/index.js',
      'undici/lib/web/fetch/index.js',
      'undici/lib/web/websocket/websocket.js',
      'undici/lib/mock/mock-agent.js',
      'undici/lib/interceptor/cache.js',
    ]) {
      expect(bundled, heavy).not.toContain(heavy);
    }
    expect(bundle).toMatch(/(var|const) connectH2 = \(\.\.\.args\) => \(h2 \?\?= require_client_h2\(\)\)\(\.\.\.args\)/);
  });

  it.each([['--version'], ['-V'], ['--help'], ['-h'], ['completion', '--profiles']])('lk %s loads no package at all', async (...args) => {
    const { run, packages } = await importsOf(args);
    expect(run.code).toBe(0);
    if (args[0] !== 'completion') expect(run.stdout.length).toBeGreaterThan(0);
    expect([...packages]).toEqual([]);
  });

  it('lk whoami --json loads commander and undici, but no table, spinner, csv or config-writing library', async () => {
    const { packages } = await importsOf(['whoami', '--json']);
    for (const name of ['ora', 'cli-table3', 'csv-stringify', 'conf', 'string-width']) expect(packages).not.toContain(name);
  });

  it('lk library --csv loads csv-stringify, not cli-table3 or ora', async () => {
    const { run, packages } = await importsOf(['library', '--csv', '--limit', '3']);
    expect(run.code).toBe(0);
    expect(packages).toContain('csv-stringify');
    expect(packages).not.toContain('cli-table3');
    expect(packages).not.toContain('ora');
  });

  it('lk library on a terminal loads cli-table3 for its table, but no spinner for a single page', async () => {
    const { run, packages } = await importsOf(['library'], { nodeArgs: ['--import', FAKE_TTY] });
    expect(run.code).toBe(0);
    expect(packages).toContain('cli-table3');
    expect(packages).not.toContain('ora');
  });

  it('a usage error is reported without loading the HTTP client', async () => {
    const { run, packages } = await importsOf(['library', '--limit', '0']);
    expect(run.code).toBe(2);
    expect(packages).not.toContain('undici');
  });

  it.each(HEAVY)('%s is a real dependency name (the list above is not stale)', (name) => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(manifest.dependencies)).toContain(name);
  });
});

describe('the stored help and version', () => {
  it('lk --help prints exactly what commander prints for `lk help` at 80 columns', async () => {
    const fast = await runLk(['--help']);
    const full = await runLk(['help']);
    expect(full.code).toBe(0);
    expect(fast.stdout).toBe(full.stdout);
    expect(fast.stdout).toContain('Usage: lk');
    for (const line of fast.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });

  it('lk --version prints the version of package.json', async () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect((await runLk(['--version'])).stdout).toBe(`${manifest.version}\n`);
  });
});
