import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestBed, type TestBed } from './harness.js';

let bed: TestBed;

beforeAll(async () => {
  bed = await startTestBed({ entries: 30, rateLimit: 0 });
});

afterAll(async () => {
  await bed.sandbox.close();
});

beforeEach(() => {
  bed.sandbox.resetCounters();
});

describe('lk history --from/--to', () => {
  it.each([
    [['--from', '2026-03-01', '--to', '2026-02-01']],
    [['--from', '2026-02-02', '--to', '2026-02-01T23:59:59Z']],
    [['--from', '2026-02-01T12:00:00Z', '--to', '2026-02-01T11:59:59Z']],
    [['--from', '2026-02-01T00:30:00+02:00', '--to', '2026-01-31T22:00:00Z']],
  ])('%j: a window that ends before it starts exits 2 and the sandbox receives nothing', async (args) => {
    const result = await bed.lk(['history', ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^lk: --from .* is after --to /);
    expect(result.stdout).toBe('');
    expect(bed.sandbox.counters.requests).toBe(0);
  });

  it.each([
    [['--from', '2026-02-01', '--to', '2026-02-01']],
    [['--from', '2026-02-01T18:00:00Z', '--to', '2026-02-01']],
    [['--from', '2026-02-01', '--to', '2026-02-01T00:00:00Z']],
    [['--from', '2026-01-01', '--to', '2026-03-01']],
  ])('%j: a window holding at least one moment (a --to day counts whole) is asked for', async (args) => {
    const result = await bed.lk(['history', '--json', ...args]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(Array.isArray(JSON.parse(result.stdout))).toBe(true);
    expect(bed.sandbox.counters.requests).toBe(1);
  });
});
