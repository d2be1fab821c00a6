import { mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBed, type TestBed } from './harness.js';

/**
 * -o naming lk's own stdout or stderr (issue 24, item 6). bed.lkProcess gives the child pipes, which libuv makes
 * socket pairs: what journald and every Node parent hand a program, and what cannot be opened by name (ENXIO).
 * Each path is a link in a temporary folder, resolved by the child to its own descriptor, never to this process's.
 */

let bed: TestBed;
let dir: string;

beforeAll(async () => {
  bed = await startTestBed({ rateLimit: 0 });
  dir = mkdtempSync(join(tmpdir(), 'lk-own-stream-'));
});
afterAll(async () => {
  await bed.sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

function linkTo(name: string, target: string): string {
  const link = join(dir, name);
  symlinkSync(target, link);
  return link;
}

describe('-o to the process own stdout or stderr when it is a socket', () => {
  it.each([
    ['/dev/stdout', 'stdout'],
    ['/dev/fd/1', 'fd1'],
    ['/proc/self/fd/1', 'self-fd1'],
  ])('a link to %s writes the listing to stdout', async (target, name) => {
    const result = await bed.lkProcess(['library', '--limit', '3', '--json', '-o', linkTo(name, target)]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(3);
  });

  it('a link to /dev/stderr writes the export to stderr, nothing on stdout', async () => {
    const result = await bed.lkProcess(['export', '-q', '-o', linkTo('stderr', '/dev/stderr')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toHaveProperty('library');
  });

  it('a link to /dev/stdout takes a converted file, and no temporary file is left beside the link', async () => {
    const result = await bed.lkProcess(['convert', 'goodreads', '-o', linkTo('convert-out', '/dev/stdout')]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split('\n')[0]).toMatch(/^Book Id,Title/);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
