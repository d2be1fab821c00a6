import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic, writeFolderAtomic } from '../../src/util/atomic-file.js';
import { acquireLock } from '../../src/util/lock.js';
import { exportName, exportStamp, rotateExports } from '../../src/export/rotation.js';
import { duration } from '../../src/commands/flag-values.js';
import { exportToCsvFiles } from '../../src/export/csv.js';
import { tempDir } from '../support/temp-dir.js';

describe('export names and rotation', () => {
  it('names carry the UTC second the export was fetched, and an account name cannot leave the folder', () => {
    expect(exportStamp(Date.UTC(2026, 10, 22, 7, 45, 1, 999))).toBe('20261122T074501Z');
    expect(exportName('../evil/name', 0, 'json.gz')).toBe('lk-export-_._evil_name-19700101T000000Z.json.gz');
  });

  it('--keep deletes only the older exports of that account and kind', async () => {
    const dir = tempDir();
    const names = [
      'lk-export-a-20260101T000000Z.json',
      'lk-export-a-20260102T000000Z.json',
      'lk-export-a-20260103T000000Z.json',
      'lk-export-a-b-20260101T000000Z.json', // account "a-b", not "a"
      'lk-export-a-20260101T000000Z.json.gz', // another kind
      'lk-export-a-20260101T000000Z.json.bak',
      'notes.txt',
    ];
    for (const name of names) writeFileSync(join(dir, name), '{}');
    mkdirSync(join(dir, 'lk-export-a-20250101T000000Z.json')); // a folder with a file's name is not a file export
    const { removed } = await rotateExports(dir, 'a', 'json', 2, 'lk-export-a-20260103T000000Z.json');
    expect(removed).toEqual(['lk-export-a-20260101T000000Z.json']);
    expect(readdirSync(dir)).toHaveLength(names.length); // 7 + the folder − 1
  });
});

describe('atomic files', () => {
  it('replace the target whole and leave no temporary file behind', async () => {
    const dir = tempDir();
    const path = join(dir, 'out.json');
    writeFileSync(path, 'old');
    await writeFileAtomic(path, 'new');
    expect(readFileSync(path, 'utf8')).toBe('new');
    expect(readdirSync(dir)).toEqual(['out.json']);
  });

  it('a folder written again replaces the old one whole', async () => {
    const dir = tempDir();
    const path = join(dir, 'set');
    await writeFolderAtomic(path, [
      { name: 'a.csv', data: '1' },
      { name: 'b.csv', data: '2' },
    ]);
    await writeFolderAtomic(path, [{ name: 'a.csv', data: '3' }]);
    expect(readdirSync(path)).toEqual(['a.csv']);
    expect(readFileSync(join(path, 'a.csv'), 'utf8')).toBe('3');
    expect(readdirSync(dir)).toEqual(['set']);
  });

  it('a failed write leaves the folder as it was', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'keep.txt'), 'x');
    await expect(
      writeFolderAtomic(join(dir, 'set'), [
        { name: 'a.csv', data: '1' },
        { name: 'a.csv', data: '2' },
      ]),
    ).rejects.toThrow(/EEXIST/);
    await expect(writeFileAtomic(join(dir, 'missing', 'out.json'), '{}')).rejects.toThrow();
    expect(readdirSync(dir)).toEqual(['keep.txt']);
  });

  it('never follows a symlink: the target is replaced, the file it pointed to is untouched', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'victim'), 'precious');
    symlinkSync(join(dir, 'victim'), join(dir, 'out.json'));
    await writeFileAtomic(join(dir, 'out.json'), 'export');
    expect(readFileSync(join(dir, 'victim'), 'utf8')).toBe('precious');
    expect(readFileSync(join(dir, 'out.json'), 'utf8')).toBe('export');
  });
});

describe('the export lock', () => {
  it('is exclusive until released', async () => {
    const path = join(tempDir(), 'lock');
    const first = await acquireLock(path);
    let second: { release(): void } | undefined;
    let startedWaiting!: () => void;
    const waitingStarted = new Promise<void>((resolve) => (startedWaiting = resolve));
    const waiting = acquireLock(path, { pollMs: 10, onWait: () => startedWaiting() }).then((lock) => (second = lock));
    await waitingStarted;
    expect(second).toBeUndefined();
    first.release();
    await waiting;
    expect(second).toBeDefined();
    second!.release();
    expect(existsSync(path)).toBe(false);
  });

  // Issue 57: lk sync waits for another sync of its mirror a bounded time, then says so (never an unexpected error).
  it('a live holder past waitMs: gives up with the error gaveUp makes, naming the holder; the lock stays its holder’s', async () => {
    const path = join(tempDir(), 'lock');
    const held = await acquireLock(path);
    try {
      let waited = false;
      const giving = acquireLock(path, {
        pollMs: 5,
        waitMs: 20,
        onWait: () => (waited = true),
        gaveUp: (holder) => new Error(`held by pid ${holder?.pid}`),
      });
      await expect(giving).rejects.toThrow(`held by pid ${process.pid}`);
      expect(waited).toBe(true);
      expect(JSON.parse(readFileSync(path, 'utf8')).pid).toBe(process.pid);
    } finally {
      held.release();
    }
  });

  it('a lock whose process is dead is taken over', async () => {
    const path = join(tempDir(), 'lock');
    writeFileSync(path, JSON.stringify({ pid: 2 ** 22 + 12345, host: (await import('node:os')).hostname(), since: '', token: 'x' }));
    const lock = await acquireLock(path);
    expect(JSON.parse(readFileSync(path, 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('a lock nobody refreshed for the stale time is taken over, even if its process lives', async () => {
    const path = join(tempDir(), 'lock');
    writeFileSync(path, JSON.stringify({ pid: process.pid, host: 'elsewhere', since: '', token: 'x' }));
    const old = new Date(Date.now() - 20 * 60_000);
    utimesSync(path, old, old);
    const lock = await acquireLock(path);
    expect(JSON.parse(readFileSync(path, 'utf8')).host).not.toBe('elsewhere');
    lock.release();
  });
});

describe('--max-age durations', () => {
  it('reads s, m, h, d and w', () => {
    expect(duration('--max-age', '0s')).toBe(0);
    expect(duration('--max-age', '30m')).toBe(1_800_000);
    expect(duration('--max-age', '2d')).toBe(172_800_000);
  });

  it.each(['', '5', '5x', '-1h', '1.5h'])('refuses %j', (raw) => {
    expect(() => duration('--max-age', raw)).toThrow(/invalid --max-age/);
  });
});

describe('export as CSV files', () => {
  it('one file per top-level array of objects, the rest in export.csv', async () => {
    const files = await exportToCsvFiles(
      { exportedAt: 'x', account: { username: 'demo' }, library: [{ id: 1, work: { title: '=1+1' } }, { id: 2 }], lists: [], tags: ['a'] },
      { header: true, csvSafe: true },
    );
    expect(files.map((file) => [file.name, file.rows])).toEqual([
      ['library.csv', 2],
      ['lists.csv', 0],
      ['export.csv', 1],
    ]);
    expect(files[0]!.text).toBe("id,work.title\n1,'=1+1\n2,\n");
    expect(files[2]!.text).toBe('exportedAt,account.username,tags\nx,demo,"[""a""]"\n');
  });
});
