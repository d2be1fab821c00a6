import { describe, expect, it } from 'vitest';
import { isoDate } from '../../src/commands/flag-values.js';
import { statusOf, type StatusSource } from '../../src/overview/status.js';
import { reportPeriod } from '../../src/report/period.js';
import { localToday } from '../../src/report/time-zone.js';
import { lastDays, parseRollingWindow, windowStart } from '../../src/util/rolling-window.js';

// "last 7 days" and "last 30 days" (lk status) and --from 7d / 30d (lk history, lk feed --since, lk report) are one
// rolling window back from now (src/util/rolling-window.ts): each surface is asked here on the same fake clock.

/** The windows lk status asks its source for, at `now`. */
async function statusWindows(now: number): Promise<Array<[number, number]>> {
  const asked: Array<[number, number]> = [];
  const source: StatusSource = {
    inProgressByDomain: () => Promise.resolve(new Map()),
    eventsBetween: (from, to) => {
      asked.push([from, to]);
      return Promise.resolve(0);
    },
    calendar: () => Promise.resolve([]),
    latestNotifications: () => Promise.resolve([]),
  };
  await statusOf(source, { now, timeZone: 'UTC', mirrorSyncedAt: null });
  return asked;
}

const MIDNIGHT = Date.parse('2026-03-31T00:00:00.000Z');

describe('rolling windows: lk status, --from Nd and lk report --from Nd agree', () => {
  for (const [label, now] of [
    ['at midnight', MIDNIGHT],
    ['a millisecond before midnight', MIDNIGHT - 1],
    ['a millisecond after midnight', MIDNIGHT + 1],
  ] as const) {
    it(`${label}: the same first moment for status and history, and its day for the report`, async () => {
      const [last7, last30] = await statusWindows(now);
      expect(last7).toEqual(lastDays(now, 7));
      expect(last30).toEqual(lastDays(now, 30));
      for (const [days, window] of [
        [7, last7!],
        [30, last30!],
      ] as const) {
        expect(window[1]).toBe(now);
        // lk history --from 30d (and lk feed --since 30d): the same moment.
        expect(Date.parse(isoDate('--from', `${days}d`, { edge: 'start', now }))).toBe(window[0]);
        // lk report --from 30d: the day that moment falls on.
        const report = reportPeriod({ from: `${days}d` }, localToday(now, 'UTC'));
        expect(report.from).toBe(new Date(window[0]).toISOString().slice(0, 10));
        expect(report.to).toBe(localToday(now, 'UTC'));
      }
    });
  }

  it('at midnight the 30-day window starts on the day 30 days back; a millisecond earlier, on the day before', async () => {
    const [, atMidnight] = await statusWindows(MIDNIGHT);
    const [, before] = await statusWindows(MIDNIGHT - 1);
    expect(new Date(atMidnight![0]).toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(reportPeriod({ from: '30d' }, localToday(MIDNIGHT, 'UTC')).from).toBe('2026-03-01');
    expect(new Date(before![0]).toISOString()).toBe('2026-02-28T23:59:59.999Z');
    expect(reportPeriod({ from: '30d' }, localToday(MIDNIGHT - 1, 'UTC')).from).toBe('2026-02-28');
  });

  it('2w is 14 days and 12h half a day, read as flags write them; other words are not windows', () => {
    expect(windowStart(MIDNIGHT, parseRollingWindow(' 2W ')!)).toBe(windowStart(MIDNIGHT, { count: 14, unit: 'd' }));
    expect(windowStart(MIDNIGHT, parseRollingWindow('12h')!)).toBe(MIDNIGHT - 43_200_000);
    for (const word of ['7', 'd7', '7m', '1234567d', 'today']) expect(parseRollingWindow(word), word).toBeUndefined();
    // lk report takes days and weeks only, up to five digits.
    expect(parseRollingWindow('12h', { units: 'dw', digits: 5 })).toBeUndefined();
    expect(parseRollingWindow('123456d', { units: 'dw', digits: 5 })).toBeUndefined();
  });
});
