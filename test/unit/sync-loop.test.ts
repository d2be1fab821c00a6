import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { startSyncLoop, syncFloorMs, type SyncCost } from '../../src/serve/sync-loop.js';
import { RateLimitError } from '../../src/util/errors.js';
import { sleep } from '../../src/util/sleep.js';

// Issue 45: lk serve --sync-every keeps the account's budget for its other clients, and honours a 429's Retry-After
// across turns. The loop waits with the plain waiter (src/util/sleep.ts), Node's timers: faked here, as a minute's wait
// cannot be real in a test.

describe('the floor of --sync-every', () => {
  it('is a sync’s requests over half the budget a minute, in whole seconds; none when the budget is unknown', () => {
    expect(syncFloorMs({ requests: 33, perMinute: 60 })).toBe(66_000);
    expect(syncFloorMs({ requests: 280, perMinute: 60 })).toBe(560_000);
    expect(syncFloorMs({ requests: 30, perMinute: 1_000_000 })).toBe(1000);
    expect(syncFloorMs({ requests: 30, perMinute: undefined })).toBe(0);
  });
});

describe('the sync loop', () => {
  let now = 0;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    now = Date.now();
  });
  afterEach(() => vi.useRealTimers());

  async function advance(ms: number): Promise<void> {
    await vi.advanceTimersByTimeAsync(ms);
    now += ms;
  }

  it('raises a --sync-every below the floor, says so once, and keeps to it', async () => {
    const lines: string[] = [];
    let syncs = 0;
    const cost: SyncCost = { requests: 33, perMinute: 60 };
    const loop = startSyncLoop({
      everyMs: 1000,
      sync: () => (syncs++, Promise.resolve(cost)),
      now: () => now,
      sleep,
      log: (line) => lines.push(line),
    });
    try {
      await advance(0); // the first at start
      expect(syncs).toBe(1);
      expect(lines).toEqual([
        'lk: serve: --sync-every 1s raised to 1m 6s: a sync takes 33 requests and the account allows 60 a minute, shared by its clients; lk serve keeps to half of it',
      ]);
      await advance(65_999);
      expect(syncs).toBe(1);
      await advance(1);
      expect(syncs).toBe(2);
      await advance(66_000 * 3);
      expect(syncs).toBe(5);
      expect(lines).toHaveLength(1);
    } finally {
      loop.stop();
    }
  });

  it('a first sync’s cost counts from the start; a --sync-every above the floor is kept as asked, without a word', async () => {
    const lines: string[] = [];
    let syncs = 0;
    const cost: SyncCost = { requests: 10, perMinute: 600 };
    const loop = startSyncLoop({
      everyMs: 5000,
      first: cost,
      sync: () => (syncs++, Promise.resolve(cost)),
      now: () => now,
      sleep,
      log: (line) => lines.push(line),
    });
    try {
      await advance(5000 * 4);
      expect(syncs).toBe(4);
      expect(lines).toEqual([]);
    } finally {
      loop.stop();
    }
  });

  it('a 429 with a Retry-After of a day: no sync before it has passed', async () => {
    const lines: string[] = [];
    let syncs = 0;
    const loop = startSyncLoop({
      everyMs: 1000,
      sync: () => {
        syncs += 1;
        if (syncs === 1) return Promise.reject(new RateLimitError('rate limited (api.rate_limited)', new Date(now + 86_400_000)));
        return Promise.resolve({ requests: 1, perMinute: 1_000_000 });
      },
      now: () => now,
      sleep,
      log: (line) => lines.push(line),
    });
    try {
      await advance(0);
      expect(syncs).toBe(1);
      expect(lines).toEqual(['lk: serve: sync failed (rate limited (api.rate_limited)); still serving the mirror as it was; next try in 24h']);
      await advance(86_400_000 - 1);
      expect(syncs).toBe(1);
      await advance(1);
      expect(syncs).toBe(2);
    } finally {
      loop.stop();
    }
  });
  /** A loop on the fake clock whose syncs each cost `cost`, counted; stopped when the test ends. */
  function countedLoop(options: { cost: SyncCost; last?: { cost: SyncCost; finishedAt: number } }): () => number {
    let syncs = 0;
    const loop = startSyncLoop({
      everyMs: 3_600_000,
      ...(options.last ? { last: options.last } : {}),
      sync: () => (syncs++, Promise.resolve(options.cost)),
      now: () => now,
      sleep,
      log: () => {},
    });
    onTestFinished(() => loop.stop());
    return () => syncs;
  }

  // Issue 57: the README's systemd unit restarts lk serve; each restart waited a whole --sync-every before a sync.
  it('--sync-every 1h on a mirror synced a day ago: a sync at start, the next an hour later', async () => {
    const cost: SyncCost = { requests: 12, perMinute: 60 };
    const syncs = countedLoop({ cost, last: { cost, finishedAt: now - 86_400_000 } });
    await advance(0);
    expect(syncs()).toBe(1);
    await advance(3_600_000 - 1);
    expect(syncs()).toBe(1);
    await advance(1);
    expect(syncs()).toBe(2);
  });

  it('a mirror with no recorded sync is synced at start too', async () => {
    const syncs = countedLoop({ cost: { requests: 1, perMinute: 60 } });
    await advance(0);
    expect(syncs()).toBe(1);
  });

  it('restarted 10s after a sync costing 33 requests at 60 a minute: the first sync once the floor (66s) has passed since it', async () => {
    const cost: SyncCost = { requests: 33, perMinute: 60 };
    const syncs = countedLoop({ cost, last: { cost, finishedAt: now - 10_000 } });
    await advance(55_999);
    expect(syncs()).toBe(0);
    await advance(1);
    expect(syncs()).toBe(1);
  });
});
