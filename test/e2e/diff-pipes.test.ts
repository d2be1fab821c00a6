import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { lkShellCommand, outputOf, shellQuote, startTestBed, type TestBed } from './harness.js';
import { describeWith } from '../support/outside-tools.js';
import { tempDir } from '../support/temp-dir.js';

// lk diff with an operand a shell makes: <(…) is a pipe at /dev/fd/N (it was "ESPIPE: invalid seek"), and - reads
// a pipe on stdin (it was "no such file").

let bed: TestBed;
let oldPath: string;
let newPath: string;

beforeAll(async () => {
  bed = await startTestBed({ entries: 20, rateLimit: 0, exportIntervalSeconds: 0 });
  const dir = tempDir('lk-diff-pipes-');
  oldPath = join(dir, 'old.json');
  newPath = join(dir, 'new.json');
  expect((await bed.lk(['export', '-q', '-o', oldPath], { env: { LK_CACHE_DIR: join(dir, 'cache-old') } })).code).toBe(0);
  bed.sandbox.addEntries('demo', 2);
  expect((await bed.lk(['export', '-q', '-o', newPath], { env: { LK_CACHE_DIR: join(dir, 'cache-new') } })).code).toBe(0);
});

afterAll(async () => {
  await bed.sandbox.close();
});

const run = (line: string) => outputOf(spawn('bash', ['-c', line], { env: { ...process.env, ...bed.env() }, stdio: ['ignore', 'pipe', 'pipe'] }));

describeWith(['bash'], 'lk diff and a pipe from a shell', () => {
  it('reads <(…) as it comes, and - from a pipe, as it reads the files', async () => {
    const expected = JSON.parse((await bed.lk(['diff', oldPath, newPath, '--json'])).stdout) as { added: unknown[] };
    expect(expected.added).toHaveLength(2);
    const substituted = await run(`${lkShellCommand(['diff', oldPath])} <(cat ${shellQuote(newPath)}) --json`);
    expect(substituted.stderr).toBe('');
    expect(JSON.parse(substituted.stdout)).toEqual(expected);
    const piped = await run(`cat ${shellQuote(newPath)} | ${lkShellCommand(['diff', oldPath, '-', '--json'])}`);
    expect(piped.stderr).toBe('');
    expect(JSON.parse(piped.stdout)).toEqual(expected);
  });
});
