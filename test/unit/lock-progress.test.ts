import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { acquireLock } from '../../src/util/lock.js';
import { tempDir } from '../support/temp-dir.js';

// Issue 56: lk notify's lock is refreshed by its progress (a target answering), not by a timer: a run stuck on a
// target lets its lock go stale, and the next run takes over instead of waiting for ever.

describe('a lock refreshed by progress only (heartbeat: false)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('no timer refreshes it; refresh() does', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const stamped = (path: string) => statSync(path).mtimeMs;
    const timed = join(tempDir(), 'timed.lock');
    const byHand = join(tempDir(), 'by-hand.lock');
    const timer = await acquireLock(timed, { staleMs: 4000 });
    const lock = await acquireLock(byHand, { staleMs: 4000, heartbeat: false });
    const [timedAt, byHandAt] = [stamped(timed), stamped(byHand)];
    vi.advanceTimersByTime(60_000);
    expect(stamped(timed)).toBeGreaterThan(timedAt); // the timer kept it fresh, stuck or not
    expect(stamped(byHand)).toBe(byHandAt);
    lock.refresh();
    expect(stamped(byHand)).toBeGreaterThan(byHandAt);
    timer.release();
    lock.release();
  });
});
