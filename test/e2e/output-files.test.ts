import { execFile, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, readFileSync, readdirSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lkShellCommand, startTestBed, type TestBed } from './harness.js';
import { tempDir } from '../support/temp-dir.js';
import { describeWith } from '../support/outside-tools.js';

/**
 * -o FILE on export, calendar and every listing (issue 13, items 1–3): a regular file (or a new path) is replaced
 * whole through a temporary file; a symbolic link is followed and its target replaced; a FIFO, a device or a process
 * substitution is written through. Everything here lives in a temporary folder: no test touches a real /dev path.
 */

const run = promisify(execFile);
let bed: TestBed;
let limited: TestBed;

beforeAll(async () => {
  bed = await startTestBed({ rateLimit: 0 });
  limited = await startTestBed({ rateLimit: 2 });
});
afterAll(async () => {
  await bed.sandbox.close();
  await limited.sandbox.close();
});

const scratch = () => tempDir('lk-out-');

/** A FIFO with a reader (cat, a real process) copying what arrives into `copy`. */
function fifoWithReader(dir: string): { fifo: string; copy: string; done: Promise<void> } {
  const fifo = join(dir, 'pipe');
  const copy = join(dir, 'copy');
  execFileSync('mkfifo', [fifo]);
  const reader = spawn('sh', ['-c', `cat "$0" > "$1"`, fifo, copy], { stdio: 'ignore' });
  const done = new Promise<void>((resolve) => reader.on('close', () => resolve()));
  return { fifo, copy, done };
}

describe('what sits at the -o path decides how it is written', () => {
  it('a symbolic link is followed: its target is replaced and the link stays a link', async () => {
    const dir = scratch();
    const target = join(dir, 'real.json');
    const link = join(dir, 'link.json');
    writeFileSync(target, 'old');
    chmodSync(target, 0o640);
    symlinkSync('real.json', link);
    const result = await bed.lk(['export', '-o', link]);
    expect(result.code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe('real.json');
    expect(JSON.parse(readFileSync(target, 'utf8'))).toHaveProperty('library');
    expect(statSync(target).mode & 0o777).toBe(0o640);
    expect(readdirSync(dir).sort()).toEqual(['link.json', 'real.json']);
  });

  it('a dangling symbolic link gets its target created', async () => {
    const dir = scratch();
    const link = join(dir, 'link.ics');
    symlinkSync('feed.ics', link);
    const result = await bed.lk(['calendar', '--format', 'ics', '-o', link]);
    expect(result.code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'feed.ics'), 'utf8')).toMatch(/^BEGIN:VCALENDAR/);
  });

  describeWith(['mkfifo'], 'a FIFO at -o', () => {
    it('a FIFO is written through, and stays a FIFO', async () => {
      const dir = scratch();
      const { fifo, copy, done } = fifoWithReader(dir);
      const result = await bed.lk(['export', '-o', fifo]);
      await done;
      expect(result.code).toBe(0);
      expect(statSync(fifo).isFIFO()).toBe(true);
      expect(JSON.parse(readFileSync(copy, 'utf8'))).toHaveProperty('library');
      expect(readdirSync(dir).sort()).toEqual(['copy', 'pipe']);
    });

    it('a link to a FIFO (what /dev/stdout is) is written through, the link and the FIFO left as they were', async () => {
      const dir = scratch();
      const { fifo, copy, done } = fifoWithReader(dir);
      const link = join(dir, 'stdout');
      symlinkSync(fifo, link);
      const result = await bed.lk(['calendar', '--format', 'ics', '-o', link]);
      await done;
      expect(result.code).toBe(0);
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      expect(statSync(fifo).isFIFO()).toBe(true);
      expect(readFileSync(copy, 'utf8')).toMatch(/^BEGIN:VCALENDAR/);
    });
  });

  describeWith(['mknod'], 'a device at -o', () => {
    it('a character device is written through and stays a device', async () => {
      const dir = scratch();
      const device = join(dir, 'null');
      // The null device's numbers, as a node in a temporary folder (this machine runs as root).
      execFileSync('mknod', [device, 'c', '1', '3']);
      const result = await bed.lk(['library', '--limit', '3', '-o', device]);
      expect(result.code).toBe(0);
      expect(statSync(device).isCharacterDevice()).toBe(true);
    });
  });

  describeWith(['bash'], 'in bash', () => {
    it('a process substitution (>(…), /dev/fd/63 in bash) is written through', async () => {
      const dir = scratch();
      const out = join(dir, 'count');
      const env = { ...bed.env(), PATH: process.env.PATH, HOME: process.env.HOME };
      await run('bash', ['-c', `${lkShellCommand(['export', '-o'])} >(wc -c > "$0"); wait`, out], { env, timeout: 60_000 });
      // The substitution runs after lk has exited: wait for its output.
      for (let i = 0; i < 50 && !(existsSync(out) && readFileSync(out, 'utf8').trim()); i++) await new Promise((r) => setTimeout(r, 100));
      expect(Number(readFileSync(out, 'utf8').trim())).toBeGreaterThan(1000);
    });
  });
});

describe('-o FILE on every listing', () => {
  it.each([
    [['library']],
    [['library', 'list', '--phase', 'DONE']],
    [['library', 'history', 'ENTRY']],
    [['library', 'show', 'ENTRY']],
    [['history']],
    [['lists']],
    [['lists', 'show', 'LIST']],
    [['reviews']],
    [['notifications']],
    [['calendar']],
    [['profile']],
    [['profile', 'achievements']],
    [['stats']],
    [['whoami']],
  ])('lk %j -o FILE writes the output there, nothing on stdout, a new file 0600', async (args) => {
    const entry = bed.sandbox.entryIds('demo')[0]!;
    const lists = JSON.parse((await bed.lk(['lists', '--json'])).stdout) as Array<{ id: string }>;
    const words = args.map((word) => (word === 'ENTRY' ? entry : word === 'LIST' ? lists[0]!.id : word));
    const file = join(scratch(), 'out.json');
    const result = await bed.lk([...words, '--json', '-o', file]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`lk: wrote ${file}\n`);
    expect(() => JSON.parse(readFileSync(file, 'utf8'))).not.toThrow();
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('a listing written to a file is plain rows by default, as in a pipe', async () => {
    const file = join(scratch(), 'library.tsv');
    const piped = await bed.lk(['library', '--limit', '5']);
    const result = await bed.lk(['library', '--limit', '5', '-o', file], { tty: { columns: 80 } });
    expect(result.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(piped.stdout);
  });

  it('a listing that fails half-way leaves the old file as it was, and no temporary file', async () => {
    const dir = scratch();
    const file = join(dir, 'library.json');
    writeFileSync(file, '["old"]');
    chmodSync(file, 0o644);
    const result = await limited.lk(['library', '--all', '--json', '--no-wait', '-o', file]);
    expect(result.code).toBe(5);
    expect(readFileSync(file, 'utf8')).toBe('["old"]');
    expect(readdirSync(dir)).toEqual(['library.json']);
  });

  it('a replaced listing keeps its permissions', async () => {
    const file = join(scratch(), 'lists.csv');
    writeFileSync(file, 'old');
    chmodSync(file, 0o644);
    const result = await bed.lk(['lists', '--csv', '-o', file]);
    expect(result.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(/^id,/);
    expect(statSync(file).mode & 0o777).toBe(0o644);
  });
});

describe('a missing folder', () => {
  it('calendar -o DIR/feed.ics creates DIR, as export --output-dir does', async () => {
    const dir = join(scratch(), 'calendar');
    const result = await bed.lk(['calendar', '--format', 'ics', '-o', join(dir, 'feed.ics')]);
    expect(result.code).toBe(0);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readFileSync(join(dir, 'feed.ics'), 'utf8')).toMatch(/^BEGIN:VCALENDAR/);
  });

  it('but not its parents: a typo fails with one line (exit 1)', async () => {
    const file = join(scratch(), 'no', 'such', 'feed.ics');
    const result = await bed.lk(['calendar', '--format', 'ics', '-o', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^lk: cannot write .*feed\.ics: no such file or directory\n$/);
  });
});
