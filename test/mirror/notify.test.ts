import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runLkInProcess, startTestBed, virtualClockAt, type RunResult, type TestBed } from '../e2e/harness.js';
import { startReceiver, type Receiver } from '../support/notify-receiver.js';
import { describeWithSqlite, describeWithoutSqlite } from '../support/sqlite-node.js';
import { tempDir } from '../support/temp-dir.js';

// Issue 48: lk notify. A sandbox synced into a mirror, and loopback receivers that speak ntfy's protocol: each test
// sends to topics of its own, so the mirror's ledger (kept per target) is shared and no test sees another's sends.

interface Told {
  kind: 'airing' | 'notification';
  key: string;
  title: string;
  body: string;
  targets: Array<{ target: string; ok: boolean | null; error: string | null }>;
}

describeWithoutSqlite(`on Node ${process.versions.node} (no node:sqlite)`, () => {
  it('lk notify exits 1 with one line naming Node 22.13, after checking its URLs (a bad one is still exit 2)', async () => {
    const dataDir = tempDir('lk-notify-old-node-');
    const result = await runLkInProcess(['notify', '--to', 'ntfy://127.0.0.1:9/t'], { env: { LK_DATA_DIR: dataDir } });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toMatch(/^lk: lk notify needs Node 22\.13 or later/);
    const bad = await runLkInProcess(['notify', '--to', 'ntfy://only-host'], { env: { LK_DATA_DIR: dataDir } });
    expect(bad.code).toBe(2);
  });
});

describeWithSqlite('lk notify', () => {
  let bed: TestBed;
  let dir: string;
  let db: string;
  let ntfy: Receiver;
  const clock = virtualClockAt(Date.UTC(2026, 2, 2, 6)); // a fixed morning: shows air later that day
  const env = () => ({ LK_CACHE_DIR: join(dir, 'cache'), LK_DATA_DIR: join(dir, 'data') });
  const lk = (args: string[], options: { sleep?: (ms: number, reason?: string) => Promise<void>; key?: string | null } = {}) =>
    bed.lk(args, { env: env(), key: options.key === undefined ? null : options.key, now: clock.now, sleep: options.sleep ?? clock.sleep });
  const notify = (args: string[], options?: Parameters<typeof lk>[1]) => lk(['notify', '--db', db, ...args], options);
  const toldBy = (result: RunResult) => JSON.parse(result.stdout) as Told[];
  const topic = (name: string) => `ntfy://${ntfy.url}/${name}`;
  /** A topic as lk shows it: the topic is the secret of a public ntfy server. */
  const shown = () => `ntfy://${ntfy.url}/***`;
  const titlesAt = (receiver: Receiver, name: string) => receiver.taken.filter((got) => got.path === `/${name}`).map((got) => got.headers.title);
  const due = async (target: string) => {
    const dry = await notify(['--to', target, '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    return toldBy(dry);
  };

  beforeAll(async () => {
    bed = await startTestBed({ entries: 120, rateLimit: 0, exportIntervalSeconds: 0, now: clock.now });
    dir = tempDir('lk-notify-');
    db = join(dir, 'mirror.db');
    const synced = await lk(['sync', '--db', db], { key: 'full' });
    expect(synced.code, synced.stderr).toBe(0);
    ntfy = await startReceiver();
  });

  afterAll(async () => {
    await ntfy.close();
    await bed.sandbox.close();
  });

  it('sends every message due once, its title in the Title header, and nothing on the second run', async () => {
    const expected = await due(topic('once'));
    expect(expected.filter((message) => message.kind === 'airing').length).toBeGreaterThan(0);
    expect(expected.filter((message) => message.kind === 'notification').length).toBeGreaterThan(0);
    const first = await notify(['--to', topic('once')]);
    expect(first.code, first.stderr).toBe(0);
    expect(titlesAt(ntfy, 'once')).toEqual(expected.map((message) => message.title));
    const bodies = ntfy.taken.filter((got) => got.path === '/once').map((got) => got.body);
    expect(bodies).toEqual(expected.map((message) => message.body));
    expect(first.stdout).toMatch(/^Sent:\n/);

    const second = await notify(['--to', topic('once'), '--json']);
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual([]);
    expect(titlesAt(ntfy, 'once')).toHaveLength(expected.length);
    expect((await notify(['--to', topic('once')])).stdout).toBe('Nothing to send.\n');
  });

  it('airing: the episodes of the calendar airing in the next 24 hours, soonest first, each keyed by its episode', async () => {
    const calendar = await lk(['calendar', '--offline', '--db', db, '--json']);
    const now = clock.now();
    const ahead = (JSON.parse(calendar.stdout) as Array<{ id: string; airsAt: string }>)
      .filter((item) => Date.parse(item.airsAt) >= now && Date.parse(item.airsAt) < now + 86_400_000)
      .sort((a, b) => Date.parse(a.airsAt) - Date.parse(b.airsAt));
    const airing = (await due(topic('airing'))).filter((message) => message.kind === 'airing');
    expect(airing.map((message) => message.key)).toEqual(ahead.map((item) => `airing:${item.id}`));
  });

  it('--dry-run sends and records nothing; the real run after it sends everything once', async () => {
    const dry = await notify(['--to', topic('dry'), '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^Would send \(nothing sent, nothing recorded\):\n/);
    expect(ntfy.received.filter((got) => got.path === '/dry')).toHaveLength(0);
    const expected = await due(topic('dry'));
    const real = await notify(['--to', topic('dry'), '--json']);
    expect(real.code, real.stderr).toBe(0);
    expect(toldBy(real).map((message) => message.key)).toEqual(expected.map((message) => message.key));
    expect(toldBy(real).every((message) => message.targets.every((target) => target.ok === true && target.error === null))).toBe(true);
    expect(titlesAt(ntfy, 'dry')).toEqual(expected.map((message) => message.title));
  });

  it('a failed target gets only what it missed on the next run; the other is not sent anything again', async () => {
    const expected = await due(topic('good'));
    // The flaky topic takes two messages, then answers 500 until it is mended.
    let mended = false;
    ntfy.answer = (request) => {
      if (request.path !== '/flaky' || mended) return undefined;
      return ntfy.taken.filter((got) => got.path === '/flaky').length >= 2 ? { status: 500 } : undefined;
    };
    const first = await notify(['--to', topic('good'), '--to', topic('flaky'), '--json']);
    expect(first.code).toBe(1);
    const lines = first.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(`lk: notify: ${shown()} failed: HTTP 500: {"error":"refused with 500"}; what it missed is sent next run`);
    expect(titlesAt(ntfy, 'good')).toEqual(expected.map((message) => message.title));
    expect(ntfy.received.filter((got) => got.path === '/flaky')).toHaveLength(3); // not tried again after the failure
    const third = toldBy(first)[2]!.targets[1]!; // in the order of --to
    expect(third).toEqual({ target: shown(), ok: false, error: 'HTTP 500: {"error":"refused with 500"}' });

    mended = true;
    const second = await notify(['--to', topic('good'), '--to', topic('flaky'), '--json']);
    expect(second.code, second.stderr).toBe(0);
    expect(toldBy(second).map((message) => message.key)).toEqual(expected.slice(2).map((message) => message.key));
    expect(toldBy(second).every((message) => message.targets.length === 1 && message.targets[0]!.target === shown())).toBe(true);
    expect(titlesAt(ntfy, 'flaky')).toEqual(expected.map((message) => message.title));
    expect(titlesAt(ntfy, 'good')).toHaveLength(expected.length);
    ntfy.answer = () => undefined;
  });

  it('a 429 is waited out for its Retry-After on the run clock, and the message is sent once', async () => {
    const expected = await due(topic('busy'));
    let refused = 0;
    ntfy.answer = (request) => (request.path === '/busy' && refused++ === 0 ? { status: 429, headers: { 'retry-after': '37' } } : undefined);
    const waits: number[] = [];
    const result = await notify(['--to', topic('busy')], {
      sleep: async (ms, reason) => {
        waits.push(ms);
        expect(reason).toBeDefined();
        await clock.sleep(ms);
      },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(waits[0]).toBe(37_000);
    expect(titlesAt(ntfy, 'busy')).toEqual(expected.map((message) => message.title));
    expect(ntfy.received.filter((got) => got.path === '/busy')).toHaveLength(expected.length + 1);
    // Never a burst: after the first few, each message waits its turn.
    expect(waits.slice(1).length).toBe(Math.max(0, expected.length - 5));
    ntfy.answer = () => undefined;
  });

  it('a notification new since the last run is told once, and alone', async () => {
    const settled = await notify(['--to', topic('new')]);
    expect(settled.code, settled.stderr).toBe(0);
    const before = titlesAt(ntfy, 'new').length;
    bed.sandbox.addNotification('demo', { title: 'Fresh news for notify', message: 'Something happened.' });
    expect((await lk(['sync', '--db', db, '--full'], { key: 'full' })).code).toBe(0);
    const run = await notify(['--to', topic('new'), '--json']);
    expect(run.code, run.stderr).toBe(0);
    const told = toldBy(run).filter((message) => message.kind === 'notification');
    expect(told.map((message) => message.title)).toEqual(['Fresh news for notify']);
    expect(told[0]!.body).toMatch(/^Something happened\.\n/);
    expect(
      titlesAt(ntfy, 'new')
        .slice(before)
        .filter((title) => title === 'Fresh news for notify'),
    ).toHaveLength(1);
    expect((await notify(['--to', topic('new'), '--json'])).stdout).toBe('[]\n');
  });

  it('two runs at once on one mirror (cron beside lk serve --notify) send each message once: the second waits', async () => {
    const expected = await due(topic('twice'));
    const [one, two] = await Promise.all([notify(['--to', topic('twice'), '--json']), notify(['--to', topic('twice'), '--json'])]);
    expect(one!.code, one!.stderr).toBe(0);
    expect(two!.code, two!.stderr).toBe(0);
    expect([...toldBy(one!), ...toldBy(two!)].map((message) => message.key).sort()).toEqual(expected.map((message) => message.key).sort());
    expect(titlesAt(ntfy, 'twice')).toHaveLength(expected.length);
    expect(`${one!.stderr}${two!.stderr}`).toMatch(/^lk: notify: waiting for another lk notify on this mirror \(pid \d+\)$/m);
  });

  it('--mark-sent records what is due without sending it: the next run sends nothing', async () => {
    const marked = await notify(['--to', topic('quiet'), '--mark-sent', '--json']);
    expect(marked.code, marked.stderr).toBe(0);
    expect(toldBy(marked).length).toBeGreaterThan(0);
    expect(ntfy.received.filter((got) => got.path === '/quiet')).toHaveLength(0);
    expect((await notify(['--to', topic('quiet'), '--json'])).stdout).toBe('[]\n');
    expect(ntfy.received.filter((got) => got.path === '/quiet')).toHaveLength(0);
  });

  it('a target is its URL without the password: a changed password or query order is the same target', async () => {
    const first = await notify(['--to', `ntfy://ann:old@${ntfy.url}/same?tags=b&priority=low`]);
    expect(first.code, first.stderr).toBe(0);
    const sent = ntfy.received.filter((got) => got.path.startsWith('/same')).length;
    expect(sent).toBeGreaterThan(0);
    const again = await notify([
      '--to',
      `ntfy://ann:new@${ntfy.url}/same?priority=low&tags=b`,
      '--to',
      `NTFY://ann:old@${ntfy.url}/same?tags=b&priority=low`,
      '--json',
    ]);
    expect(again.stdout).toBe('[]\n');
    expect(ntfy.received.filter((got) => got.path.startsWith('/same'))).toHaveLength(sent);
    // The user and password reach ntfy as Basic auth.
    expect(ntfy.received.find((got) => got.path.startsWith('/same'))!.headers.authorization).toBe(
      `Basic ${Buffer.from('ann:old').toString('base64')}`,
    );
  });

  it('the secret in a URL is never in any output: --dry-run, --json, -v, the failure line', async () => {
    const secret = 'pw-Sekr3t-4242';
    ntfy.answer = (request) => (request.path === '/secret' ? { status: 500 } : undefined);
    const target = `ntfy://me:${secret}@${ntfy.url}/secret`;
    const runs = [
      await notify(['--to', target, '--dry-run']),
      await notify(['--to', target, '--dry-run', '--json']),
      await notify(['--to', target, '-v', '--json']),
      await notify(['--to', target]),
      await notify(['--to', `json://me:${secret}@127.0.0.1:1/`]),
    ];
    for (const run of runs) expect(`${run.stdout}${run.stderr}`).not.toContain(secret);
    expect(runs[3]!.code).toBe(1);
    expect(runs[3]!.stderr).toContain(`ntfy://me:***@${ntfy.url}/*** failed`);
    expect(runs[4]!.stderr).toContain('json://me:***@127.0.0.1:1 failed');
    ntfy.answer = () => undefined;
  });

  it('every URL is checked before anything is read, synced or sent (exit 2)', async () => {
    const noApprise = tempDir('lk-notify-path-');
    bed.sandbox.resetCounters();
    const cases = [
      ['--to', 'nope://somewhere/x'],
      ['--to', 'ntfy://host-only'],
      ['--to', 'not a url at all'],
      ['--to', 'mailto://user:pw@mail.example.org'],
    ];
    for (const args of cases) {
      const result = await bed.lk(['notify', '--db', db, '--sync', '--to', topic('checked'), ...args], {
        env: { ...env(), PATH: noApprise },
        now: clock.now,
        sleep: clock.sleep,
      });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^lk: /);
      expect(result.stderr).not.toContain('pw@');
    }
    const unknown = await bed.lk(['notify', '--db', db, '--to', 'nope://x/y'], { env: { ...env(), PATH: noApprise } });
    expect(unknown.stderr).toContain('ntfy://, ntfys://, json://, jsons://, mailto://, mailtos://, discord://');
    expect(bed.sandbox.counters.requests).toBe(0);
    expect(ntfy.received.filter((got) => got.path === '/checked')).toHaveLength(0);
    // lk serve --notify checks the same before it listens or syncs.
    for (const args of [['--notify'], ['--to', topic('checked')], ['--sync-every', '1h', '--notify', '--to', 'nope://x/y']]) {
      const serve = await bed.lk(['serve', '--port', '0', '--db', db, ...args], {
        env: { ...env(), PATH: noApprise },
        now: clock.now,
        sleep: clock.sleep,
      });
      expect(serve.code, serve.stderr).toBe(2);
      expect(serve.stdout).toBe('');
    }
    expect(bed.sandbox.counters.requests).toBe(0);
    const nowhere = await notify([]);
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toMatch(/^lk: lk notify has nowhere to send/);
  });

  it('the config list notify: stored 0600, never shown whole, used when no --to is given', async () => {
    const secret = 'cfg-Passw0rd';
    const list = `ntfy://me:${secret}@${ntfy.url}/configured`;
    const set = await lk(['config', 'set', 'notify', list]);
    expect(set.code, set.stderr).toBe(0);
    expect(statSync(join(bed.home.configDir, 'config.json')).mode & 0o777).toBe(0o600);
    const get = await lk(['config', 'get', 'notify']);
    const shown = await lk(['config', 'list', '--json']);
    for (const run of [set, get, shown]) expect(`${run.stdout}${run.stderr}`).not.toContain(secret);
    expect(get.stdout).toBe(`ntfy://me:***@${ntfy.url}/***\n`);
    const run = await notify([]);
    expect(run.code, run.stderr).toBe(0);
    expect(titlesAt(ntfy, 'configured').length).toBeGreaterThan(0);
    expect(`${run.stdout}${run.stderr}`).not.toContain(secret);
    await lk(['config', 'unset', 'notify']);
  });

  it("the run's flags apply to the targets: --timeout, --max-wait, --no-wait, -v, -q", async () => {
    // A stalled target: --timeout fails it.
    ntfy.answer = (request) => (request.path === '/slow' ? { status: 200, stall: true } : undefined);
    const slow = await notify(['--to', topic('slow'), '--timeout', '0.2']);
    expect(slow.code).toBe(1);
    expect(slow.stderr).toMatch(/^lk: notify: ntfy:\/\/127\.0\.0\.1:\d+\/\*\*\* failed: .*[Tt]imeout/);
    // A 429 asking for longer than --max-wait (or any wait, --no-wait) fails the target at once.
    ntfy.answer = (request) => (request.path === '/limited' ? { status: 429, headers: { 'retry-after': '30' } } : undefined);
    for (const flags of [['--max-wait', '5'], ['--no-wait']]) {
      const waits: number[] = [];
      const result = await notify(['--to', topic('limited'), ...flags], { sleep: async (ms) => void waits.push(ms) });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('asked to wait 30s, more than --max-wait (or --no-wait)');
      expect(waits).toEqual([]);
    }
    // Waited out, the 429 is said on stderr, and not with -q.
    let refusals = 0;
    ntfy.answer = (request) =>
      request.path.startsWith('/said') && refusals++ % 2 === 0 ? { status: 429, headers: { 'retry-after': '30' } } : undefined;
    const said = await notify(['--to', topic('said'), '--json']);
    expect(said.code, said.stderr).toBe(0);
    expect(said.stderr).toMatch(/^lk: waiting 30s /m);
    refusals = 0;
    const quiet = await notify(['--to', topic('said-quiet'), '--json', '-q']);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe('');
    expect(toldBy(quiet).every((message) => message.targets[0]!.ok === true)).toBe(true);
    expect(refusals).toBeGreaterThan(1); // it was refused, and waited
    ntfy.answer = () => undefined;
    // -v: a line for each message a target took.
    const verbose = await notify(['--to', topic('verbose'), '-v', '--json']);
    const keys = toldBy(verbose).map((message) => message.key);
    expect(verbose.stderr.split('\n').filter((line) => line.startsWith('lk: notify: '))).toEqual(
      keys.map((key) => `lk: notify: ${shown()} took ${key}`),
    );
  });
});
