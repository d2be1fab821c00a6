import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { lkShellCommand, lkSpawnArgs, outputOf, startTestBed, virtualClockAt, type RunResult, type TestBed } from '../e2e/harness.js';
import { startReceiver, type Receiver } from '../support/notify-receiver.js';
import { describeWith } from '../support/outside-tools.js';
import { startSmtp } from '../support/smtp-receiver.js';
import { describeWithSqlite } from '../support/sqlite-node.js';
import { tempDir } from '../support/temp-dir.js';
import { until } from '../support/until.js';

// Issue 56: lk notify against hostile text, slow targets and a shared machine. Each test starts its target quiet
// (--mark-sent), then gives the sandbox the notification it needs and syncs: it sends only what it planted.

interface Told {
  kind: string;
  key: string;
  title: string;
  body: string;
  targets: Array<{ target: string; ok: boolean | null; error: string | null; refusedRuns?: number; givenUp?: boolean }>;
}

/** This machine's own address that is not loopback (off loopback to lk, still this machine), if it has one. */
function ownAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((found) => found?.family === 'IPv4' && !found.internal)?.address;
}

/** A loopback server answering every request `status`, then writing its body by `write` until it is closed. */
async function startAnswering(write: (res: ServerResponse) => void): Promise<{ url: string; server: Server; closed: Promise<void> }> {
  let closedResolve!: () => void;
  const closed = new Promise<void>((resolve) => (closedResolve = resolve));
  const server = createServer((req, res) => {
    req.resume();
    res.on('close', () => closedResolve());
    write(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `127.0.0.1:${(server.address() as AddressInfo).port}`, server, closed };
}

describeWithSqlite('lk notify hardened', () => {
  let bed: TestBed;
  let dir: string;
  let db: string;
  let ntfy: Receiver;
  const clock = virtualClockAt(Date.UTC(2026, 2, 2, 6)); // a fixed morning: nothing here depends on the real date
  const env = () => ({ LK_CACHE_DIR: join(dir, 'cache'), LK_DATA_DIR: join(dir, 'data') });
  const lk = (args: string[], options: { key?: string | null; env?: Record<string, string | undefined> } = {}) =>
    bed.lk(args, { env: { ...env(), ...options.env }, key: options.key === undefined ? null : options.key, now: clock.now, sleep: clock.sleep });
  const notify = (args: string[], options?: Parameters<typeof lk>[1]) => lk(['notify', '--db', db, ...args], options);
  const toldBy = (result: RunResult) => JSON.parse(result.stdout) as Told[];
  /** The target starts quiet, then the sandbox gains one notification, synced: the next run has that one to send. */
  const plant = async (targets: string[], title: string, message = 'Planted by the test.') => {
    for (const target of targets) expect((await notify(['--to', target, '--mark-sent'])).code).toBe(0);
    bed.sandbox.addNotification('demo', { title, message });
    const synced = await lk(['sync', '--db', db, '--full'], { key: 'full' });
    expect(synced.code, synced.stderr).toBe(0);
  };
  const lkProcess = (args: string[], more: { env?: NodeJS.ProcessEnv; cwd?: string } = {}) =>
    spawn(...lkSpawnArgs(['notify', '--db', db, ...args]), {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TZ: 'UTC', ...env(), ...more.env },
      cwd: more.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });

  beforeAll(async () => {
    bed = await startTestBed({ entries: 40, rateLimit: 0, exportIntervalSeconds: 0, now: clock.now });
    dir = tempDir('lk-notify-hard-');
    db = join(dir, 'mirror.db');
    expect((await lk(['sync', '--db', db], { key: 'full' })).code).toBe(0);
    ntfy = await startReceiver();
  });

  afterAll(async () => {
    await ntfy.close();
    await bed.sandbox.close();
  });

  it("a target's secret is never printed: the ntfy topic, a token in the user part, a header's value, Discord's token", async () => {
    const secrets = ['Topic-Secret-1', 'tk_TokenSecret2', 'Hdr-Secret-3', 'Discord-Secret-4'];
    const targets = [
      `ntfy://${ntfy.url}/Topic-Secret-1`,
      `ntfy://tk_TokenSecret2@${ntfy.url}/plain-topic`,
      `json://${ntfy.url}/hook?+X-Token=Hdr-Secret-3`,
      'discord://1234567890/Discord-Secret-4/',
    ];
    await plant(targets, 'Secret keeping');
    // Every answer a failure that repeats what it was sent to (as a proxy or a service may); Discord's proxy is refused.
    ntfy.answer = (request) => ({ status: 500, body: `no such place ${request.path} for ${request.headers.authorization ?? ''}` });
    const to = targets.flatMap((target) => ['--to', target]);
    const proxied = { env: { HTTPS_PROXY: 'http://127.0.0.1:1' } };
    const runs = [
      await notify([...to, '--dry-run'], proxied),
      await notify([...to, '--dry-run', '--json'], proxied),
      await notify([...to, '-v', '--json'], proxied),
      await notify([...to, '-v'], proxied),
    ];
    ntfy.answer = () => undefined;
    await plant(targets.slice(0, 3), 'Secret keeping, taken');
    runs.push(await notify([...to.slice(0, 6), '-v']));
    expect(runs[4]!.stdout).toMatch(/^Sent:\n/);
    for (const run of runs) for (const secret of secrets) expect(`${run.stdout}${run.stderr}`).not.toContain(secret);
    expect(runs[3]!.stderr).toContain(`lk: notify: ntfy://${ntfy.url}/*** failed: HTTP 500: no such place /*** for`);
    expect(runs[3]!.stderr).toContain(`lk: notify: ntfy://***@${ntfy.url}/*** failed`);
    expect(runs[3]!.stderr).toContain(`lk: notify: json://${ntfy.url}/***?+X-Token=*** failed`);
    expect(runs[3]!.stderr).toContain('lk: notify: discord://***/*** failed');
  });

  it('a title over 998 characters reaches a real SMTP server folded (it refuses a longer line); nothing waits behind it', async () => {
    const smtp = await startSmtp();
    try {
      const target = `mailto://lk-user:pw@127.0.0.1:${smtp.port}?to=me@example.org&from=lk@example.org`;
      const title = `${'Long'.repeat(500)}-end`;
      await plant([target], title);
      bed.sandbox.addNotification('demo', { title: 'After the long one', message: 'Short.' });
      expect((await lk(['sync', '--db', db, '--full'], { key: 'full' })).code).toBe(0);
      const run = await notify(['--to', target, '--json']);
      expect(run.code, run.stderr).toBe(0);
      expect(smtp.mails).toHaveLength(2);
      const raw = smtp.mails[0]!.raw;
      expect(Math.max(...raw.split(/\r?\n/).map((line) => line.length))).toBeLessThanOrEqual(998);
      const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
      const subject = /^Subject: (.*)$/im.exec(head)![1]!;
      const decoded = subject
        .split(' ')
        .map((word) => Buffer.from(/^=\?UTF-8\?B\?(.*)\?=$/i.exec(word)![1]!, 'base64'))
        .reduce((all, part) => Buffer.concat([all, part]), Buffer.alloc(0))
        .toString('utf8');
      expect(decoded).toBe(title);
    } finally {
      await smtp.close();
    }
  });

  it('a message refused for its own content is recorded failed with its reason, the others go on; given up after 3 runs', async () => {
    const target = `ntfy://${ntfy.url}/picky`;
    await plant([target], 'Too much for the service');
    bed.sandbox.addNotification('demo', { title: 'Fine for the service', message: 'Short.' });
    expect((await lk(['sync', '--db', db, '--full'], { key: 'full' })).code).toBe(0);
    ntfy.answer = (request) => (request.headers.title === 'Too much for the service' ? { status: 413, body: 'message too large' } : undefined);
    const runs: RunResult[] = [];
    for (let run = 0; run < 4; run++) runs.push(await notify(['--to', target, '--json']));
    ntfy.answer = () => undefined;
    const refused = (result: RunResult) => toldBy(result).find((message) => message.title === 'Too much for the service')?.targets[0];
    expect(runs[0]!.code).toBe(1);
    expect(refused(runs[0]!)).toEqual({
      target: `ntfy://${ntfy.url}/***`,
      ok: false,
      error: 'HTTP 413: message too large',
      refusedRuns: 1,
      givenUp: false,
    });
    expect(runs[0]!.stderr).toContain('refused notification:');
    expect(runs[0]!.stderr).toContain('tried again next run (given up after 3)');
    // The next message was sent in the same run, once.
    expect(ntfy.taken.filter((got) => got.path === '/picky').map((got) => got.headers.title)).toEqual(['Fine for the service']);
    expect(refused(runs[2]!)).toMatchObject({ refusedRuns: 3, givenUp: true });
    expect(runs[2]!.stderr).toContain('given up after 3 runs');
    expect(toldBy(runs[3]!)).toEqual([]);
    expect(runs[3]!.code).toBe(0);
    expect(ntfy.received.filter((got) => got.headers.title === 'Too much for the service')).toHaveLength(3);
  });

  it('a target that answers 500 and trickles its body a byte a second fails at --timeout, not when the body ends', async () => {
    let timer: NodeJS.Timeout | undefined;
    const trickler = await startAnswering((res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      let left = 600; // ten minutes of body
      timer = setInterval(() => (left-- > 0 ? res.write('x') : res.end()), 1000);
    });
    try {
      const target = `ntfy://${trickler.url}/slow`;
      await plant([target], 'Trickled');
      const run = await notify(['--to', target, '--timeout', '1']);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/failed: no whole answer within the timeout \(1s, --timeout\)/);
      await trickler.closed; // lk hung up: the body was not waited for
    } finally {
      clearInterval(timer);
      trickler.server.closeAllConnections();
      trickler.server.close();
    }
  });

  it('an error answer is read to a small cap: lk hangs up on a 300 MB body instead of reading it', async () => {
    let written = 0;
    const chunk = Buffer.alloc(1 << 20, 'e');
    const huge = await startAnswering((res) => {
      res.writeHead(500, { 'content-type': 'text/plain', 'content-length': String(300 * chunk.length) });
      const pump = () => {
        while (written < 300 * chunk.length && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    try {
      const target = `ntfy://${huge.url}/huge`;
      await plant([target], 'Huge answer');
      const run = await notify(['--to', target]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/failed: HTTP 500: e{100,}; what it missed/);
      await huge.closed;
      expect(written).toBeLessThan(64 * chunk.length); // what the socket buffers took, not the 300 MB
    } finally {
      huge.server.closeAllConnections();
      huge.server.close();
    }
  });

  it('what came from a server or a target is printed harmless and on one line: OSC 52, CSI, bidi, NUL, CR/LF', async () => {
    const target = `ntfy://${ntfy.url}/hostile`;
    const title = 'Evil\u001b]52;c;cHduZWQ=\u0007\u001b[2J\u202eflipped\u0000\r\nlk: notify: forged line';
    await plant([target], title);
    ntfy.answer = (request) => (request.path === '/hostile' ? { status: 500, body: 'bad\u001b]0;retitled\u0007\r\nlk: forged' } : undefined);
    const failed = await notify(['--to', target]);
    ntfy.answer = () => undefined;
    expect(failed.code).toBe(1);
    const lines = failed.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(failed.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    const sent = await notify(['--to', target]);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout.trim().split('\n')).toHaveLength(2); // "Sent:" and the one message
    expect(sent.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
  });

  describeWith(['script'], 'on a real terminal', () => {
    it('a hostile title and error body reach the terminal as one harmless line each', async () => {
      const target = `ntfy://${ntfy.url}/terminal`;
      await plant([target], 'Term\u001b]52;c;cHduZWQ=\u0007\u001b[31m\u202eRED\r\nlk: forged');
      ntfy.answer = (request) => (request.path === '/terminal' ? { status: 500, body: 'no\u001b]0;retitled\u0007\nlk: forged too' } : undefined);
      const command = `exec ${lkShellCommand(['notify', '--db', db, '--to', target])}; `;
      const child = spawn('script', ['-qec', command, '/dev/null'], {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: 'xterm-256color', LANG: 'C.UTF-8', ...env() },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const failed = await outputOf(child);
      ntfy.answer = () => undefined;
      expect(failed.stdout).not.toContain('\u001b');
      expect(failed.stdout).not.toContain('\u202e');
      expect(failed.stdout.split('\r\n').filter((line) => line.includes('forged'))).toHaveLength(1);
      const again = spawn('script', ['-qec', command, '/dev/null'], {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: 'xterm-256color', LANG: 'C.UTF-8', ...env() },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const sent = await outputOf(again);
      expect(sent.stdout).toMatch(/^Sent:\r\n/);
      expect(sent.stdout).not.toContain('\u001b');
      expect(sent.stdout.split('\r\n').filter(Boolean)).toHaveLength(2);
    });
  });

  it('mailto:// off loopback will not log in without TLS, naming STARTTLS and mailtos://; loopback may', async () => {
    const address = ownAddress();
    if (address === undefined) return; // no address but loopback: nothing is off loopback here
    const smtp = await startSmtp(undefined, address);
    try {
      const target = `mailto://me:Cleartext-Pw@${address}:${smtp.port}?to=me@example.org`;
      await plant([target], 'Not in clear');
      const run = await notify(['--to', target]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/offers no STARTTLS.*use mailtos:\/\//);
      expect(smtp.logins).toEqual([]);
      expect(smtp.mails).toEqual([]);
    } finally {
      await smtp.close();
    }
  });

  it('one mirror through a symlinked --db is one mirror: two runs at once send each message once', async () => {
    const target = `ntfy://${ntfy.url}/linked`;
    await plant([target], 'Linked once');
    const link = join(dir, 'link.db');
    symlinkSync(db, link);
    const [one, two] = await Promise.all([
      lk(['notify', '--db', db, '--to', target, '--json']),
      lk(['notify', '--db', link, '--to', target, '--json']),
    ]);
    expect(one.code, one.stderr).toBe(0);
    expect(two.code, two.stderr).toBe(0);
    expect(ntfy.taken.filter((got) => got.path === '/linked').map((got) => got.headers.title)).toEqual(['Linked once']);
  });

  it("json://'s +header, -query, :payload and method reach the service; an unknown parameter is refused (exit 2), never dropped", async () => {
    const target = `json://${ntfy.url}/put-hook?+X-Token=abc&-foo=bar&:extra=1&method=PUT`;
    await plant([target], 'With a header');
    const run = await notify(['--to', target]);
    expect(run.code, run.stderr).toBe(0);
    const got = ntfy.taken.find((request) => request.path.startsWith('/put-hook'))!;
    expect([got.method, got.path, got.headers['x-token']]).toEqual(['PUT', '/put-hook?foo=bar', 'abc']);
    expect(JSON.parse(got.body)).toMatchObject({ title: 'With a header', extra: '1' });
    const priority = `ntfy://${ntfy.url}/prio?priority=high&tags=tv,new&click=https://app.example.org/x`;
    await plant([priority], 'With a priority');
    expect((await notify(['--to', priority])).code).toBe(0);
    expect(ntfy.taken.find((request) => request.path === '/prio')!.headers).toMatchObject({
      priority: 'high',
      tags: 'tv,new',
      click: 'https://app.example.org/x',
    });
    for (const args of [
      ['notify', '--db', db, '--to', `json://${ntfy.url}/hook?token=abc`],
      ['config', 'set', 'notify', `ntfy://${ntfy.url}/t?delay=1h`],
    ]) {
      const refused = await lk(args);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/parameter "(token|delay)"/);
    }
    expect((await lk(['config', 'get', 'notify'])).stdout).toBe('');
  });

  it('a zero Retry-After still backs off, and more each time', async () => {
    const target = `ntfy://${ntfy.url}/zero`;
    await plant([target], 'Zero wait');
    let refusals = 0;
    ntfy.answer = (request) => (request.path === '/zero' && refusals++ < 2 ? { status: 429, headers: { 'retry-after': '0' } } : undefined);
    const waits: number[] = [];
    const run = await bed.lk(['notify', '--db', db, '--to', target], {
      env: env(),
      key: null,
      now: clock.now,
      sleep: async (ms, reason, signal) => {
        waits.push(ms);
        await clock.sleep(ms, reason, signal);
      },
    });
    ntfy.answer = () => undefined;
    expect(run.code, run.stderr).toBe(0);
    expect(waits).toEqual([1000, 2000]);
  });

  it('lk serve --notify never holds its sync loop on a target that does not answer', async () => {
    const target = `ntfy://${ntfy.url}/held`;
    await plant([target], 'Held by the target');
    ntfy.answer = (request) => (request.path === '/held' ? { status: 200, stall: true } : undefined);
    const child = spawn(...lkSpawnArgs(['serve', '--port', '0', '--db', db, '--sync-every', '1s', '--notify', '--to', target, '--timeout', '600']), {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TZ: 'UTC', ...env(), ...bed.env('full') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const ended = outputOf(child);
    try {
      await until(() => ntfy.received.some((got) => got.path === '/held'));
      // The target holds its request (up to --timeout, 10 minutes): the syncs go on meanwhile.
      const syncs = bed.sandbox.counters.byPath['/v1/notifications'] ?? 0;
      await until(() => (bed.sandbox.counters.byPath['/v1/notifications'] ?? 0) >= syncs + 2);
      expect(ntfy.received.filter((got) => got.path === '/held')).toHaveLength(1); // one turn at a time
    } finally {
      child.kill('SIGTERM');
      await ended;
      ntfy.answer = () => undefined;
    }
  });

  it('--fields is refused, pointing at --jq per message (it would pick from the array as one object)', async () => {
    const run = await notify(['--to', `ntfy://${ntfy.url}/fields`, '--fields', 'title,kind']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/--fields/);
    expect(run.stderr).toMatch(/--jq/);
  });

  describeWith(['apprise'], 'with apprise', () => {
    it('a 200 KiB body goes to the real apprise on stdin; neither title nor body is on any command line', async () => {
      // apprise's request is never answered: the test looks at every command line while apprise waits, then ends lk.
      ntfy.answer = (request) => (request.path === '/big' ? { status: 200, stall: true } : undefined);
      const body = `Start ${'b'.repeat(200 * 1024)} end`;
      const hand = `form://${ntfy.url}/big`; // form:// is apprise's alone: lk hands it over
      await plant([hand], 'Title-Not-In-Ps', body);
      const child = lkProcess(['--to', hand, '--timeout', '20']);
      const ended = outputOf(child);
      await until(() => ntfy.received.some((got) => got.path === '/big'));
      const lines = commandLines();
      expect(lines.some((line) => line.includes('Title-Not-In-Ps'))).toBe(false);
      expect(lines.some((line) => line.includes('bbbbbbbbbbbbbbbb'))).toBe(false);
      child.kill('SIGTERM');
      await ended;
      ntfy.answer = () => undefined;
      const form = new URLSearchParams(ntfy.received.find((got) => got.path === '/big')!.body);
      expect(form.get('title')).toBe('Title-Not-In-Ps');
      expect(form.get('message')).toContain(body);
    });

    it("apprise's own words say why it failed (escaped, one line); --dry-run refuses what apprise cannot parse (exit 2)", async () => {
      const run = await notify(['--to', 'form://127.0.0.1:1/refused']);
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr, run.stderr).toMatch(/failed: apprise exited with \d+: \S/);
      const bogus = await notify(['--to', 'bogus://x/Bogus-Secret', '--dry-run']);
      expect(bogus.code).toBe(2);
      expect(bogus.stderr).toMatch(/^lk: apprise does not take bogus:\/\/\*\*\*\/\*\*\*: Unparseable URL/);
      expect(bogus.stderr).not.toContain('Bogus-Secret');
      const telegram = await notify(['--to', 'tgram://123456:AAH-bot-Token/chat', '--dry-run']);
      expect(telegram.code, telegram.stderr).toBe(0);
      // Stored as written, shown masked, and lk notify takes it from the config as it does from --to.
      const stored = await lk(['config', 'set', 'notify', 'tgram://123456:AAH-bot-Token/chat']);
      expect(stored.code, stored.stderr).toBe(0);
      expect((await lk(['config', 'get', 'notify'])).stdout).toBe('tgram://***\n');
      expect((await notify(['--dry-run'])).code).toBe(0);
      await lk(['config', 'unset', 'notify']);
    });

    it('apprise is found in absolute PATH folders only (never ./apprise), and gets nothing of the key', async () => {
      const cwd = tempDir('lk-notify-cwd-');
      const marker = join(cwd, 'ran');
      writeFileSync(join(cwd, 'apprise'), `#!/bin/sh\ntouch ${marker}\n`);
      chmodSync(join(cwd, 'apprise'), 0o755);
      const nodeOnly = tempDir('lk-notify-bin-');
      const relative = await outputOf(lkProcess(['--to', `form://${ntfy.url}/cwd`], { cwd, env: { PATH: `:.:${nodeOnly}` } }));
      expect(relative.code).toBe(2);
      expect(relative.stderr).toMatch(/no apprise command is on PATH/);
      expect(existsSync(marker)).toBe(false);

      // A stand-in apprise (Python, as apprise is, by path or through env) in an absolute folder records what it got.
      const keyFile = join(tempDir('lk-notify-key-'), 'key');
      writeFileSync(keyFile, bed.sandbox.key('full'));
      for (const [at, shebang] of ['#!/usr/bin/python3', '#!/usr/bin/env python3'].entries()) {
        const bin = tempDir('lk-notify-fake-');
        const record = join(bin, 'record.json');
        writeFileSync(
          join(bin, 'apprise'),
          `${shebang}\nimport json, os, sys\nargv = open('/proc/self/cmdline','rb').read().split(b'\\0')\n` +
            `json.dump({'cmdline': [a.decode() for a in argv], 'env': dict(os.environ), 'stdin': sys.stdin.read(), 'argv': sys.argv}, open(${JSON.stringify(record)}, 'w'))\n`,
        );
        chmodSync(join(bin, 'apprise'), 0o755);
        const target = `form://${ntfy.url}/fake-${at}`;
        await plant([target], `Fake-Title-${at}`);
        const run = await outputOf(
          lkProcess(['--to', target], { env: { PATH: `${bin}:/usr/bin:/bin`, LK_API_KEY_FILE: keyFile, LK_API_KEY: bed.sandbox.key('full') } }),
        );
        expect(run.code, run.stderr).toBe(0);
        const got = JSON.parse(readFileSync(record, 'utf8')) as { cmdline: string[]; env: Record<string, string>; stdin: string; argv: string[] };
        expect(Object.keys(got.env).filter((name) => name.startsWith('LK_API_KEY'))).toEqual([]);
        expect(got.cmdline.join(' ')).not.toContain('Fake-Title');
        expect(got.cmdline.join(' ')).not.toContain('Planted by the test');
        expect(got.argv.slice(1)).toEqual(['-v', '-t', `Fake-Title-${at}`]);
        expect(got.stdin).toMatch(/^Planted by the test\.\n/);
      }
    });
  });
});

/** Every process's command line on this machine, as `ps` shows them to any user. */
function commandLines(): string[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        return [readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ')];
      } catch {
        return [];
      }
    });
}
