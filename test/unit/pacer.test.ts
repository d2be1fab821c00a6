import { existsSync, readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BudgetStore, Pacer, type PacingWait } from '../../src/api/rate-limit.js';
import { tempDir } from '../support/temp-dir.js';

/** A pacer on a fake clock: waits advance the clock and are recorded. */
function pacerAt(start = 1_000_000, options: { spaceOut?: boolean; store?: BudgetStore; checkWait?: (wait: PacingWait) => void } = {}) {
  let now = start;
  const waits: Array<{ ms: number; reason: string }> = [];
  const pacer = new Pacer({
    now: () => now,
    wait: async (ms, reason) => {
      waits.push({ ms, reason });
      now += ms;
    },
    checkWait: options.checkWait ?? (() => undefined),
    spaceOut: options.spaceOut ?? true,
    store: options.store,
  });
  return { pacer, waits, now: () => now };
}

describe('Pacer', () => {
  it('lets work that fits in the budget go at once, however fast', async () => {
    const { pacer, waits, now } = pacerAt();
    pacer.observe({ limit: 30, remaining: 29, resetAt: now() + 59_000 }, 0);
    for (let i = 0; i < 29; i++) await pacer.acquire(29 - i);
    expect(waits).toEqual([]);
  });

  it('waits for the reset once the budget is spent instead of sending into a 429', async () => {
    const { pacer, waits, now } = pacerAt();
    const resetAt = now() + 5_000;
    pacer.observe({ limit: 10, remaining: 1, resetAt }, 0);
    await pacer.acquire(1);
    await pacer.acquire(1);
    expect(waits).toHaveLength(1);
    expect(waits[0]!.reason).toMatch(/budget of 10 requests a minute is spent/);
    expect(now()).toBeGreaterThanOrEqual(resetAt);
  });

  it('spreads more work than the budget allows over the rest of the window, one request kept back', async () => {
    const { pacer, waits, now } = pacerAt();
    const resetAt = now() + 10_000;
    pacer.observe({ limit: 60, remaining: 6, resetAt }, 0);
    for (let i = 0; i < 5; i++) await pacer.acquire(20);
    // 6 left, 1 kept back: 5 requests over 10 s, and the reserve is never spent before the reset.
    expect(now()).toBeLessThan(resetAt);
    expect(waits.some((wait) => wait.reason.startsWith('to pace requests'))).toBe(true);
    await pacer.acquire(20);
    expect(now()).toBeGreaterThanOrEqual(resetAt);
  });

  it('with --no-wait never spaces requests out, and refuses a spent budget through checkWait', async () => {
    const refused: PacingWait[] = [];
    const { pacer, waits, now } = pacerAt(1_000_000, {
      spaceOut: false,
      checkWait: (wait) => {
        refused.push(wait);
        throw new Error('refused');
      },
    });
    pacer.observe({ limit: 60, remaining: 3, resetAt: now() + 30_000 }, 0);
    for (let i = 0; i < 3; i++) await pacer.acquire(50);
    expect(waits).toEqual([]);
    await expect(pacer.acquire(50)).rejects.toThrow('refused');
    expect(refused[0]!.spent).toBe(true);
  });

  it('after a 429 holds every request until Retry-After, whatever the headers said', async () => {
    const { pacer, waits, now } = pacerAt();
    pacer.observe({ limit: 60, remaining: 40, resetAt: now() + 30_000 }, 0);
    await pacer.acquire(1);
    pacer.hold(now() + 2_000);
    pacer.observe({ limit: 60, remaining: 39, resetAt: now() + 30_000 }, 1); // an older request's answer
    await pacer.acquire(1);
    expect(waits.map((wait) => Math.round(wait.ms))).toEqual([2_250]);
  });

  it('ignores the answer of a request sent before the one it already heard from', async () => {
    const { pacer, waits, now } = pacerAt();
    pacer.observe({ limit: 60, remaining: 50, resetAt: now() + 3_000 }, 0);
    for (let i = 0; i < 5; i++) await pacer.acquire(1);
    pacer.observe({ limit: 60, remaining: 0, resetAt: now() + 3_000 }, 5);
    pacer.observe({ limit: 60, remaining: 20, resetAt: now() + 3_000 }, 4);
    await pacer.acquire(1);
    expect(waits).toHaveLength(1);
  });
});

describe('BudgetStore', () => {
  const budget = { limit: 60, remaining: 0, resetAt: 2_000_000 };

  it('hands the last budget to the next process, in a file named by a hash and holding no key', () => {
    const dir = tempDir('lk-budget-');
    const key = `lk_${'a'.repeat(49)}`;
    new BudgetStore(dir, 'https://tracker.example.org', { key }).write(budget);
    const next = pacerAt(1_990_000, { store: new BudgetStore(dir, 'https://tracker.example.org', { key }) });
    expect(next.pacer.budget).toEqual(budget);
    const [name] = readdirSync(join(dir, 'ratelimit'));
    expect(name).toMatch(/^[0-9a-f]{32}\.json$/);
    expect(readFileSync(join(dir, 'ratelimit', name!), 'utf8')).not.toContain(key);
  });

  it('keeps instances and keys apart', () => {
    const dir = tempDir('lk-budget-');
    new BudgetStore(dir, 'https://a.example', { key: `lk_${'a'.repeat(49)}` }).write(budget);
    expect(new BudgetStore(dir, 'https://b.example', { key: `lk_${'a'.repeat(49)}` }).read(1_990_000)).toBeUndefined();
    expect(new BudgetStore(dir, 'https://a.example', { key: `lk_${'b'.repeat(49)}` }).read(1_990_000)).toBeUndefined();
  });

  it("is the account's once the account is known, whichever of its keys is used", () => {
    const dir = tempDir('lk-budget-');
    new BudgetStore(dir, 'https://a.example', { account: 'demo' }).write(budget);
    expect(new BudgetStore(dir, 'https://a.example', { account: 'demo' }).read(1_990_000)).toEqual(budget);
    expect(new BudgetStore(dir, 'https://a.example', { account: 'reader' }).read(1_990_000)).toBeUndefined();
    expect(new BudgetStore(dir, 'https://a.example', { key: 'demo' }).read(1_990_000)).toBeUndefined();
  });

  it('writes no whole budget, which a reader assumes without a file, and removes the older one a reader would pace by', () => {
    const dir = tempDir('lk-budget-');
    const store = new BudgetStore(dir, 'https://a.example', { key: `lk_${'a'.repeat(49)}` });
    store.write({ limit: 60, remaining: 60, resetAt: 2_000_000 }, 1_990_000);
    expect(existsSync(store.file)).toBe(false);
    new BudgetStore(dir, 'https://a.example', { key: `lk_${'a'.repeat(49)}` }).write(budget, 1_990_000);
    expect(store.read(1_990_000)).toEqual(budget);
    new BudgetStore(dir, 'https://a.example', { key: `lk_${'a'.repeat(49)}` }).write({ limit: 60, remaining: 60, resetAt: 2_060_000 }, 2_000_500);
    expect(existsSync(store.file)).toBe(false);
    // A spent budget of an instance that names no limit is news: it is written.
    store.write({ limit: 0, remaining: 0, resetAt: 2_000_000 }, 1_990_000);
    expect(store.read(1_990_000)).toEqual({ limit: 0, remaining: 0, resetAt: 2_000_000 });
  });

  it('treats a partial, unreadable or expired file as no budget at all', () => {
    const dir = tempDir('lk-budget-');
    const store = new BudgetStore(dir, 'https://a.example', { key: `lk_${'a'.repeat(49)}` });
    mkdirSync(join(dir, 'ratelimit'), { recursive: true });
    writeFileSync(store.file, '{"limit":60,"remain');
    expect(store.read(1_990_000)).toBeUndefined();
    writeFileSync(store.file, '{"limit":60,"remaining":"x","resetAt":2000000}');
    expect(store.read(1_990_000)).toBeUndefined();
    store.write(budget);
    expect(store.read(2_000_001)).toBeUndefined();
    expect(store.read(1_990_000)).toEqual(budget);
  });
});
