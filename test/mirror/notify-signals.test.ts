import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { lkSpawnArgs, outputOf, startTestBed, type TestBed } from '../e2e/harness.js';
import { startReceiver, type Receiver } from '../support/notify-receiver.js';
import { describeWithSqlite } from '../support/sqlite-node.js';
import { tempDir } from '../support/temp-dir.js';
import { until } from '../support/until.js';

// Issue 48: lk notify killed in the middle of a run (SIGKILL: no handler runs, no cleanup) loses nothing it learnt,
// and the next run sends again only the message that was in flight: at least once, duplicates bounded.

interface Told {
  key: string;
  body: string;
}

describeWithSqlite('lk notify killed mid-run', () => {
  let bed: TestBed;
  let dir: string;
  let db: string;
  let receiver: Receiver;
  const env = () => ({ ...bed.env(null), LK_CACHE_DIR: join(dir, 'cache'), PATH: process.env.PATH, HOME: process.env.HOME, TZ: 'UTC' });
  const lkProcess = (args: string[]) => spawn(...lkSpawnArgs(['notify', '--db', db, ...args]), { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });

  beforeAll(async () => {
    bed = await startTestBed({ entries: 80, rateLimit: 0, exportIntervalSeconds: 0, clock: null });
    dir = tempDir('lk-notify-kill-');
    db = join(dir, 'mirror.db');
    const synced = await bed.lk(['sync', '--db', db], { env: { LK_CACHE_DIR: join(dir, 'cache') } });
    expect(synced.code, synced.stderr).toBe(0);
    receiver = await startReceiver();
  });

  afterAll(async () => {
    await receiver.close();
    await bed.sandbox.close();
  });

  it('SIGKILL while a message is in flight, then a rerun: nothing missing, only the one in flight sent twice', async () => {
    const target = `ntfy://${receiver.url}/killed`;
    const dry = await outputOf(lkProcess(['--to', target, '--dry-run', '--json']));
    expect(dry.code, dry.stderr).toBe(0);
    const expected = JSON.parse(dry.stdout) as Told[];
    expect(expected.length).toBeGreaterThan(4);

    // The fourth message is never answered: lk is killed while it waits for it.
    receiver.answer = (_request, nth) => (nth === 3 ? { status: 200, stall: true } : undefined);
    const child = lkProcess(['--to', target]);
    const ended = outputOf(child);
    await until(() => receiver.received.length === 4);
    child.kill('SIGKILL');
    expect((await ended).code).toBeNull(); // killed, not ended
    // Told apart by their bodies (titles repeat: "New follower"), which name each episode or notification's page.
    const inFlight = receiver.received[3]!.body;
    expect(inFlight).toBe(expected[3]!.body);

    receiver.answer = () => undefined;
    const rerun = await outputOf(lkProcess(['--to', target, '--json']));
    expect(rerun.code, rerun.stderr).toBe(0);
    // Nothing missing: every message taken, each once.
    const taken = receiver.taken.map((got) => got.body);
    for (const message of expected) expect(taken.filter((body) => body === message.body)).toHaveLength(1);
    // The rerun sent only what the killed run had not had taken: the one in flight among them, first.
    const resent = (JSON.parse(rerun.stdout) as Told[]).map((message) => message.key);
    expect(resent.slice(0, expected.length - 3)).toEqual(expected.slice(3).map((message) => message.key));
    // Duplicates bounded: of every request the receiver saw, only the one in flight came twice.
    const seen = receiver.received.map((got) => got.body);
    const twice = [...new Set(seen)].filter((body) => seen.filter((other) => other === body).length > 1);
    expect(twice).toEqual([inFlight]);
  });

  it('lk serve --sync-every --notify tells a notification the sandbox gains once, after the sync that brings it', async () => {
    const target = `ntfy://${receiver.url}/served`;
    // Start quiet: what is due now is recorded, so the turns send only what is new.
    const quiet = await outputOf(lkProcess(['--to', target, '--mark-sent']));
    expect(quiet.code, quiet.stderr).toBe(0);
    const child = spawn(...lkSpawnArgs(['serve', '--port', '0', '--db', db, '--sync-every', '1s', '--notify', '--to', target]), {
      env: { ...env(), LK_API_KEY: bed.sandbox.key('full') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const ended = outputOf(child);
    try {
      bed.sandbox.addNotification('demo', { title: 'Served news', message: 'Told by lk serve' });
      const served = () => receiver.taken.filter((got) => got.path === '/served' && got.headers.title === 'Served news');
      await until(() => served().length > 0);
      // Two more turns: it is not told again.
      const turns = bed.sandbox.counters.byPath['/v1/notifications'] ?? 0;
      await until(() => (bed.sandbox.counters.byPath['/v1/notifications'] ?? 0) >= turns + 2);
      expect(served()).toHaveLength(1);
      const bodies = receiver.received.filter((got) => got.path === '/served').map((got) => got.body);
      expect(new Set(bodies).size).toBe(bodies.length);
    } finally {
      child.kill('SIGTERM');
    }
    const result = await ended;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^lk: serve: notified 1 message$/m);
  });
});
