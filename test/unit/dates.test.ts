import { describe, expect, it } from 'vitest';
import { detailedDate, shortDate, shortDateTime } from '../../src/output/formats/dates.js';

// Local days and times below are those of UTC (Node reads TZ again when it changes).
process.env.TZ = 'UTC';

const now = Date.parse('2026-03-10T12:00:00Z');
const at = (ms: number) => new Date(now + ms).toISOString();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('dates in a table', () => {
  it('within a week, relative: just now, minutes, hours, days, past and future', () => {
    expect(shortDate(at(-10_000), now)).toBe('just now');
    expect(shortDate(at(-5 * MINUTE), now)).toBe('5m ago');
    expect(shortDate(at(3 * HOUR), now)).toBe('in 3h');
    expect(shortDate(at(-2 * DAY), now)).toBe('2d ago');
  });

  it('each unit gives way to the next as a whole one: 59m, 1h; 23h, 1d (never "24h ago")', () => {
    expect(shortDate(at(-59 * MINUTE), now)).toBe('59m ago');
    expect(shortDate(at(-59.7 * MINUTE), now)).toBe('1h ago');
    expect(shortDate(at(-23 * HOUR), now)).toBe('23h ago');
    expect(shortDate(at(-23.7 * HOUR), now)).toBe('1d ago');
  });

  it('beyond a week, the local day; what is not a date stays as it is', () => {
    expect(shortDate('2026-01-02T08:00:00.000Z', now)).toBe('2026-01-02');
    expect(shortDate('soon', now)).toBe('soon');
    expect(shortDate(null, now)).toBe('');
  });

  it('an airing time: day and time, and how soon within the day', () => {
    expect(shortDateTime(at(3 * HOUR), now)).toBe('2026-03-10 15:00 (in 3h)');
    expect(shortDateTime('2026-03-12T20:30:00.000Z', now)).toBe('2026-03-12 20:30');
  });

  it('one value on its own: day and time, and how long ago within a week', () => {
    expect(detailedDate('2026-03-08T12:00:00.000Z', now)).toBe('2026-03-08 12:00 (2d ago)');
    expect(detailedDate('2025-03-08T12:00:00.000Z', now)).toBe('2025-03-08 12:00');
  });
});
