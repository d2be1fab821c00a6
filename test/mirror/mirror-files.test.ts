import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LK_COMMAND, lkSpawnArgs, outputOf, startTestBed, type RunResult, type TestBed } from '../e2e/harness.js';
import { describeWith } from '../support/outside-tools.js';
import { tempDir } from '../support/temp-dir.js';
import { describeWithSqlite, describeWithoutSqlite } from '../support/sqlite-node.js';

// Issue 33: the mirror as a real file on a real machine. Whatever is at --db, every reader answers with one line
// naming the file and what to do (exit 1) before SQLite is given it; a lock is waited for briefly, then named; a
// mirror this user can read but not write is read by every reader and refused by lk sync before any request; lk
// makes the mirror 0600 and its folders 0700.

interface Db {
  exec(sql: string): void;
  close(): void;
}

function sqlite(path: string): Db {
  const { DatabaseSync } = createRequire(import.meta.url)('node:sqlite') as { DatabaseSync: new (path: string) => Db };
  return new DatabaseSync(path);
}

/** Every command that reads the mirror, as a user would name it with --db. */
const READERS: string[][] = [
  ['report', '--json'],
  ['feed'],
  ['convert', 'letterboxd'],
  ['search', 'night'],
  ['sql', 'SELECT count(*) FROM entries'],
  ['library', '--offline'],
  ['calendar', '--offline', '--format', 'ics'],
];

describeWithoutSqlite(`on Node ${process.versions.node} (no node:sqlite)`, () => {
  it('a reader given a folder as --db still says first that it needs Node 22.13', async () => {
    const bed = await startTestBed({ entries: 5, rateLimit: 0 });
    try {
      const result = await bed.lk(['report', '--db', tempDir('lk-mirror-files-')], { key: null });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/needs Node 22\.13 or later/);
    } finally {
      await bed.sandbox.close();
    }
  });
});

describeWithSqlite('the mirror file', () => {
  let bed: TestBed;
  let dir: string;
  let mirror: string;

  beforeAll(async () => {
    bed = await startTestBed({ entries: 40, rateLimit: 0, exportIntervalSeconds: 0 });
    dir = tempDir('lk-mirror-files-');
    mirror = join(dir, 'mirror.db');
    const synced = await bed.lk(['sync', '--db', mirror], { env: { LK_DATA_DIR: dir, LK_CACHE_DIR: join(dir, 'cache') } });
    expect(synced.code, synced.stderr).toBe(0);
  });

  afterAll(async () => {
    await bed.sandbox.close();
  });

  /** lk as a process with no key: a reader needs none (lk sync is given one). */
  const lkProcess = (args: string[], key: string | null = null) =>
    bed.lkProcess(args, { key, env: { LK_DATA_DIR: dir, LK_CACHE_DIR: join(dir, 'cache') }, timeoutMs: 20_000 });

  const expectNamedRefusal = (result: RunResult, path: string, what: RegExp) => {
    expect(result.code, result.stderr).toBe(1);
    const [first, hint] = result.stderr.trim().split('\n').slice(-2);
    expect(first).toContain(path);
    expect(first).toMatch(what);
    expect(first).not.toMatch(/unexpected error/);
    expect(hint).toMatch(/^[A-Z]/);
  };

  describe('anything but a mirror as --db', () => {
    const cases: Array<[string, (path: string) => void, RegExp]> = [
      ['a 0-byte file', (path) => writeFileSync(path, ''), /is empty \(0 bytes\)/],
      ['a folder', (path) => mkdirSync(path), /is a folder/],
      ['a dangling link', (path) => symlinkSync(join(dirname(path), 'gone.db'), path), /link to a file that does not exist/],
      [
        'random bytes',
        (path) => writeFileSync(path, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 151 + 7) % 256))),
        /is not an SQLite database/,
      ],
      [
        "a newer lk's mirror",
        (path) => {
          copyFileSync(mirror, path);
          const db = sqlite(path);
          db.exec('PRAGMA user_version = 99');
          db.close();
        },
        /made by a newer lk/,
      ],
      [
        'an SQLite database of something else',
        (path) => {
          const db = sqlite(path);
          db.exec('CREATE TABLE notes (body TEXT)');
          db.close();
        },
        /not an lk mirror/,
      ],
    ];
    for (const [what, make, message] of cases) {
      it(`${what}: every reader, and lk sync, exit 1 with one line naming it, before any request`, async () => {
        const path = join(tempDir('lk-not-a-mirror-'), 'x.db');
        make(path);
        for (const reader of READERS) {
          const result = await bed.lk([...reader, '--db', path], { key: null, env: { LK_DATA_DIR: dir } });
          expectNamedRefusal(result, path, message);
          expect(result.stdout, reader.join(' ')).toBe('');
        }
        if (what === 'a 0-byte file') return; // lk sync makes its mirror in an empty file
        bed.sandbox.resetCounters();
        const synced = await bed.lk(['sync', '--db', path], { env: { LK_DATA_DIR: dir, LK_CACHE_DIR: join(dir, 'cache') } });
        expectNamedRefusal(synced, path, message);
        expect(bed.sandbox.counters.exports).toBe(0);
      });
    }
  });

  describeWith(['mkfifo'], 'a FIFO as --db (real processes: SQLite would block in open() for ever)', () => {
    let fifo: string;
    beforeAll(() => {
      fifo = join(tempDir('lk-fifo-'), 'mirror.db');
      expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    });

    for (const reader of [...READERS, ['sync']]) {
      it(`lk ${reader.join(' ')} exits 1 naming the FIFO`, async () => {
        const result = await lkProcess([...reader, '--db', fifo], reader[0] === 'sync' ? 'full' : null);
        expectNamedRefusal(result, fifo, /is a FIFO/);
      });
    }

    it('a reader sent SIGTERM as it starts ends by it or by its refusal, never by the SIGKILL of a timeout', async () => {
      const child = spawn(...lkSpawnArgs(['report', '--db', fifo]), {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR, LK_DATA_DIR: dir, TZ: 'UTC' },
        stdio: ['ignore', 'ignore', 'ignore'],
      });
      const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.on('exit', (code, signal) => resolve({ code, signal })),
      );
      const timeout = setTimeout(() => child.kill('SIGKILL'), 20_000);
      child.kill('SIGTERM');
      const { code, signal } = await ended;
      clearTimeout(timeout);
      expect(signal === 'SIGTERM' || code === 143 || code === 1, `exit ${code}, signal ${signal}`).toBe(true);
    });
  });

  describe('a lock on the mirror (a second process holding a write transaction)', () => {
    /** A node process that opens the mirror, begins a transaction that writes, and holds it until killed. */
    const holdLock = async (path: string, exclusive: boolean) => {
      const script = `
        const { DatabaseSync } = require('node:sqlite');
        const db = new DatabaseSync(${JSON.stringify(path)});
        db.exec(${JSON.stringify(exclusive ? 'PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE' : 'BEGIN IMMEDIATE')});
        db.exec("INSERT INTO mirror_meta(key, value) VALUES ('held', 'yes') ON CONFLICT(key) DO UPDATE SET value = 'again'");
        process.stdout.write('holding\\n');
        setInterval(() => {}, 1000);`;
      const holder = spawn(process.execPath, ['--no-warnings', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve, reject) => {
        holder.stdout.on('data', (chunk: Buffer) => (chunk.toString().includes('holding') ? resolve() : undefined));
        holder.on('exit', (code) => reject(new Error(`the lock holder ended (${code})`)));
      });
      return () => new Promise<void>((resolve) => (holder.exitCode === null ? holder.once('exit', () => resolve()).kill('SIGKILL') : resolve()));
    };

    it('a transaction of another writer (as lk sync holds one) blocks no reader: the mirror is WAL', async () => {
      const path = join(tempDir('lk-wal-'), 'mirror.db');
      copyFileSync(mirror, path);
      const release = await holdLock(path, false);
      try {
        for (const reader of [
          ['report', '--json'],
          ['library', '--offline', '--limit', '1'],
          ['sql', 'SELECT count(*) AS n FROM entries'],
        ]) {
          const result = await lkProcess([...reader, '--db', path]);
          expect(result.code, `${reader.join(' ')}: ${result.stderr}`).toBe(0);
        }
      } finally {
        await release();
      }
    });

    it('a lock readers must wait for (an exclusive one): retried briefly, then named in one line, exit 1', async () => {
      const path = join(tempDir('lk-locked-'), 'mirror.db');
      copyFileSync(mirror, path);
      const release = await holdLock(path, true);
      try {
        for (const reader of [
          ['report', '--json'],
          ['sql', 'SELECT 1'],
        ]) {
          const result = await lkProcess([...reader, '--db', path]);
          expectNamedRefusal(result, path, /is locked by another program/);
        }
      } finally {
        await release();
      }
    });
  });

  describe('file modes', () => {
    it('lk sync makes the mirror 0600 and the data, cache and config folders it creates 0700, whatever the umask', async () => {
      const root = tempDir('lk-modes-');
      const env = { LK_DATA_DIR: join(root, 'data', 'lk'), LK_CACHE_DIR: join(root, 'cache', 'lk'), LK_CONFIG_DIR: join(root, 'config', 'lk') };
      const child = spawn('sh', ['-c', 'umask 022 && exec "$0" "$@"', ...LK_COMMAND, 'sync'], {
        env: { PATH: process.env.PATH, HOME: root, TMPDIR: process.env.TMPDIR, TZ: 'UTC', ...bed.env('full'), ...env },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      child.stdin.end();
      const synced = await outputOf(child, 60_000);
      expect(synced.code, synced.stderr).toBe(0);
      const config = await bed.lkProcess(['config', 'set', 'format', 'json'], { env });
      expect(config.code, config.stderr).toBe(0);
      const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
      expect(mode(join(env.LK_DATA_DIR, 'default.db'))).toBe('600');
      for (const folder of [
        join(root, 'data'),
        env.LK_DATA_DIR,
        join(root, 'cache'),
        env.LK_CACHE_DIR,
        // The launcher's compile cache: under node only (the single file, LK_TEST_BINARY, carries its code in itself).
        ...(process.env.LK_TEST_BINARY ? [] : [join(env.LK_CACHE_DIR, 'compile')]),
        env.LK_CONFIG_DIR,
      ]) {
        expect(mode(folder), folder).toBe('700');
      }
    });
  });

  describeWith(['setpriv'], 'a mirror this user can read but not write (another user, a read-only folder)', () => {
    const asRoot = process.getuid?.() === 0;
    /** lk as nobody (setpriv) where the tests run as root, who writes any file; else as this user. */
    const asOtherUser = (args: string[], key: string | null, home: string) => {
      const command = asRoot ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', ...LK_COMMAND, ...args] : [...LK_COMMAND, ...args];
      const child = spawn(command[0]!, command.slice(1), {
        env: {
          PATH: process.env.PATH,
          HOME: home,
          TMPDIR: home,
          TZ: 'UTC',
          ...bed.env(key),
          LK_CONFIG_DIR: join(home, 'config'),
          LK_CACHE_DIR: join(home, 'cache'),
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      child.stdin.end();
      return outputOf(child, 30_000);
    };

    let folder: string;
    let shared: string;
    let home: string;
    const restore: Array<() => void> = [];

    beforeAll(() => {
      // The run's temp folders are 0700 (and so may be the folder TMPDIR names, as .ci/run's own): nobody may pass
      // through each folder above the shared one that others cannot pass (and only through those), until the test ends.
      folder = tempDir('lk-shared-');
      for (let path = folder; path !== dirname(path); path = dirname(path)) {
        const before = statSync(path).mode & 0o777;
        if ((before & 0o001) !== 0) continue;
        chmodSync(path, before | 0o111);
        restore.push(() => chmodSync(path, before));
      }
      shared = join(folder, 'mirror.db');
      copyFileSync(mirror, shared);
      chmodSync(shared, 0o444);
      chmodSync(folder, 0o555);
      home = tempDir('lk-other-home-');
      chmodSync(home, 0o777);
    });

    afterAll(() => {
      chmodSync(folder, 0o700);
      for (const undo of restore.reverse()) undo();
    });

    for (const reader of [...READERS, ['history', '--offline', '--all'], ['stats', '--offline']]) {
      it(`lk ${reader.join(' ')} reads it`, async () => {
        const result = await asOtherUser([...reader, '--db', shared], null, home);
        expect(result.code, result.stderr).toBe(0);
        expect(result.stdout).not.toBe('');
      });
    }

    it('lk sync refuses it before any request, naming what is read-only', async () => {
      bed.sandbox.resetCounters();
      const result = await asOtherUser(['sync', '--db', shared], 'full', home);
      expectNamedRefusal(result, shared, /cannot sync .* read-only/);
      expect(bed.sandbox.counters.requests).toBe(0);
    });
  });
});
