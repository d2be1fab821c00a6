import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { lkSpawnArgs, runLk, startTestBed, type TestBed } from '../e2e/harness.js';
import { describeWith } from '../support/outside-tools.js';
import { tempDir } from '../support/temp-dir.js';
import { until } from '../support/until.js';
import { describeWithSqlite, describeWithoutSqlite } from '../support/sqlite-node.js';

// Issue 38: lk serve as a real process: what only a process shows (its exit on SIGTERM and Ctrl-C), and --sync-every
// keeping the mirror fresh against a sandbox that would allow an export every second, while lk keeps to the hour.

interface Running {
  child: ChildProcessWithoutNullStreams;
  url: string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

describeWithoutSqlite(`on Node ${process.versions.node} (no node:sqlite)`, () => {
  it('lk serve as a process exits 1 naming Node 22.13, without listening', async () => {
    const dataDir = tempDir('lk-serve-process-');
    const result = await runLk(['serve', '--port', '0'], { env: { LK_DATA_DIR: dataDir } });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toMatch(/^lk: lk serve needs Node 22\.13 or later/);
  });
});

describeWithSqlite('lk serve as a process', () => {
  let bed: TestBed;
  let dataDir: string;
  const running = new Set<ChildProcessWithoutNullStreams>();

  beforeAll(async () => {
    bed = await startTestBed({ entries: 60, rateLimit: 0, exportIntervalSeconds: 1, clock: null });
    dataDir = tempDir('lk-serve-process-');
  });
  afterAll(async () => {
    for (const child of running) child.kill('SIGKILL');
    await bed.sandbox.close();
  });

  /** Starts `lk serve`, resolved once its first stdout line (the address) is there. */
  async function start(args: string[]): Promise<Running> {
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TZ: 'UTC',
      LANG: 'C.UTF-8',
      ...bed.env('full'),
      LK_DATA_DIR: dataDir,
      LK_CACHE_DIR: join(dataDir, 'cache'),
    };
    const child = spawn(...lkSpawnArgs(['serve', '--port', '0', ...args]), { env, stdio: ['pipe', 'pipe', 'pipe'] });
    running.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, signal) => {
        running.delete(child);
        resolve({ code, signal });
      }),
    );
    let gone = false;
    void exited.then(() => (gone = true));
    await until(() => stdout.includes('\n') || gone);
    if (gone) throw new Error(`lk serve ended before listening: ${stderr}`);
    return { child, url: stdout.split('\n')[0]!, stderr: () => stderr, exited };
  }

  it('--sync-every picks up a new entry without a restart, and asks for the export once in its hour', async () => {
    bed.sandbox.resetCounters();
    // No mirror yet: lk serve makes it first (from the export), then syncs every second.
    const serving = await start(['--sync-every', '1s']);
    try {
      expect(bed.sandbox.counters.byPath['/v1/export']).toBe(1);
      const feed = async () => (await (await fetch(new URL('/feed.json', serving.url))).json()) as { items: { title: string }[] };
      const titleBefore = (await feed()).items[0]?.title;

      bed.sandbox.addEntries('demo', 1);
      const [newest] = bed.sandbox.entryIds('demo');
      bed.sandbox.addEvent('demo', newest!, 'FILM_SEEN');
      const library = await fetch(new URL(`/v1/library/${newest}`, bed.sandbox.url), {
        headers: { authorization: `Bearer ${bed.sandbox.key('full')}` },
      });
      const title = ((await library.json()) as { work: { title: string } }).work.title;
      let seen: string | undefined;
      await until(() => {
        void feed().then((body) => (seen = body.items[0]?.title));
        return seen !== undefined && seen !== titleBefore && seen.includes(title);
      });
      expect(seen).toContain(title);
      // Several syncs have run by now; the sandbox would have allowed an export each second: lk asked once.
      const turns = bed.sandbox.counters.byPath['/v1/library'] ?? 0;
      await until(() => (bed.sandbox.counters.byPath['/v1/library'] ?? 0) >= turns + 2);
      expect(bed.sandbox.counters.byPath['/v1/export']).toBe(1);
      // Within the hour the turns read only what changed since the last sync (quick-sync.test.ts).
      expect(serving.stderr()).toMatch(/from what changed since the last sync/);
    } finally {
      serving.child.kill('SIGTERM');
      expect((await serving.exited).code).toBe(0);
    }
  });

  /** One request as written, over a raw socket (fetch sets Host itself): the status line's code and the body. */
  function rawRequest(url: string, lines: string[]): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const socket = connect(Number(new URL(url).port), '127.0.0.1');
      let text = '';
      socket.setEncoding('latin1').on('data', (chunk: string) => (text += chunk));
      socket.on('end', () => resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1]), body: text.split('\r\n\r\n')[1] ?? '' }));
      socket.on('error', reject);
      socket.write(`${[...lines, 'Connection: close'].join('\r\n')}\r\n\r\n`);
    });
  }

  const PATHS = ['/', '/calendar.ics', '/feed.atom', '/feed.json', '/status.json', '/next.json', '/report/2026.html', '/nope'];

  it('on loopback, a Host but its own is refused (421) on every route before anything is read; its own names are served', async () => {
    const serving = await start([]);
    try {
      const { port } = new URL(serving.url);
      const foreign = [
        'attacker.example',
        `attacker.example:${port}`,
        '127.0.0.1.attacker.example',
        `localhost.attacker.example:${port}`,
        '[::1].evil',
        '127.0.0.2x',
        '',
      ];
      for (const path of PATHS)
        for (const host of foreign) {
          const answer = await rawRequest(serving.url, [`GET ${path} HTTP/1.1`, `Host: ${host}`]);
          expect(answer.status, `${path} with Host ${host}`).toBe(421);
          expect(answer.body).toBe('lk serve answers only 127.0.0.1, localhost and [::1]\n');
        }
      // No Host at all (HTTP/1.0), and a method that is not allowed: the name is checked first.
      expect((await rawRequest(serving.url, ['GET /next.json HTTP/1.0'])).status).toBe(421);
      expect((await rawRequest(serving.url, ['POST /next.json HTTP/1.1', 'Host: attacker.example', 'Content-Length: 0'])).status).toBe(421);
      for (const host of ['127.0.0.1', `127.0.0.1:${port}`, 'localhost', `LOCALHOST:${port}`, '[::1]', `[::1]:${port}`])
        expect((await rawRequest(serving.url, ['GET /status.json HTTP/1.1', `Host: ${host}`])).status, host).toBe(200);
    } finally {
      serving.child.kill('SIGTERM');
      expect((await serving.exited).code).toBe(0);
    }
  });

  it('off loopback the token guards and any Host is served', async () => {
    const token = 'a-token-of-more-than-sixteen-characters';
    const tokenFile = join(tempDir('lk-serve-token-'), 'token');
    writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
    const serving = await start(['--host', '0.0.0.0', '--token-file', tokenFile]);
    try {
      const guarded = await rawRequest(serving.url, ['GET /status.json HTTP/1.1', 'Host: lk.lan.example']);
      expect(guarded.status).toBe(401);
      const served = await rawRequest(serving.url, [`GET /status.json?token=${token} HTTP/1.1`, 'Host: lk.lan.example:8787']);
      expect(served.status).toBe(200);
    } finally {
      serving.child.kill('SIGTERM');
      expect((await serving.exited).code).toBe(0);
    }
  });

  it('a --token-file others can read draws the warning a key file does; it still serves', async () => {
    const tokenFile = join(tempDir('lk-serve-token-'), 'token');
    writeFileSync(tokenFile, 'a-token-of-more-than-sixteen-characters\n', { mode: 0o644 });
    const serving = await start(['--host', '0.0.0.0', '--token-file', tokenFile]);
    try {
      expect(serving.stderr()).toContain(`lk: warning: the token file ${tokenFile} is readable by others (mode 0644); run: chmod 600 ${tokenFile}\n`);
    } finally {
      serving.child.kill('SIGTERM');
      expect((await serving.exited).code).toBe(0);
    }
  });

  describeWith(['mkfifo', 'mknod'], 'a --token-file that is not a file', () => {
    // Real processes: a FIFO with no writer blocked lk serve in open() for ever, deaf to SIGTERM and SIGINT.
    const dir = () => tempDir('lk-serve-special-');
    const cases: [what: string, make: () => string, named: RegExp][] = [
      [
        'a FIFO with no writer',
        () => {
          const path = join(dir(), 'fifo');
          execFileSync('mkfifo', [path]);
          return path;
        },
        /is a FIFO \(named pipe\), not a file/,
      ],
      // The zero device's numbers, as a node in a temporary folder: a file without end.
      [
        'a device',
        () => {
          const path = join(dir(), 'zero');
          execFileSync('mknod', [path, 'c', '1', '5']);
          return path;
        },
        /is a device, not a file/,
      ],
      [
        'a folder',
        () => {
          const path = join(dir(), 'folder');
          mkdirSync(path);
          return path;
        },
        /is a folder, not a file/,
      ],
    ];
    for (const [what, make, named] of cases)
      it(`${what}: one line naming it, exit 1, before listening`, async () => {
        const path = make();
        const result = await runLk(['serve', '--port', '0', '--host', '0.0.0.0', '--token-file', path], {
          env: { LK_DATA_DIR: dataDir },
          timeoutMs: 20_000,
        });
        expect(result.code).toBe(1);
        expect(result.stdout).toBe('');
        const [line, ...rest] = result.stderr.split('\n');
        expect(line).toMatch(new RegExp(`^lk: --token-file ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} ${named.source}$`));
        expect(rest.join('\n')).toBe('Point --token-file at a file holding the token.\n');
      });
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} ends it with exit 0`, async () => {
      const serving = await start([]);
      expect((await fetch(new URL('/status.json', serving.url))).status).toBe(200);
      // A client holding a keep-alive connection open must not keep it running.
      const agent = await fetch(serving.url, { headers: { connection: 'keep-alive' } });
      expect(agent.status).toBe(200);
      serving.child.kill(signal);
      expect(await serving.exited).toEqual({ code: 0, signal: null });
    });
  }

  it('a sync that fails is said once on stderr and tried again; the last good mirror is still served', async () => {
    const serving = await start(['--sync-every', '1s']);
    try {
      const before = await (await fetch(new URL('/next.json', serving.url))).text();
      bed.sandbox.faults = { htmlBody: true };
      await until(() => (serving.stderr().match(/sync failed/g) ?? []).length >= 2);
      const failures = serving
        .stderr()
        .split('\n')
        .filter((line) => line.includes('sync failed'));
      expect(failures[0]).toMatch(/^lk: serve: sync failed \(.+\); still serving the mirror as it was; next try in 1s$/);
      const during = await fetch(new URL('/next.json', serving.url));
      expect(during.status).toBe(200);
      expect(await during.text()).toBe(before);
    } finally {
      bed.sandbox.faults = {};
      serving.child.kill('SIGTERM');
      expect((await serving.exited).code).toBe(0);
    }
  });
});
