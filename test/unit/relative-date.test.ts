import { describe, expect, it } from 'vitest';
import { canonicalChoice } from '../../src/util/choice.js';
import { resolveFriendlyDate } from '../../src/util/relative-date.js';

const NOW = Date.parse('2026-03-10T12:34:56.789Z');

describe('resolveFriendlyDate', () => {
  it.each([
    ['12h', '2026-03-10T00:34:56.789Z'],
    ['7d', '2026-03-03T12:34:56.789Z'],
    ['2w', '2026-02-24T12:34:56.789Z'],
    ['7D', '2026-03-03T12:34:56.789Z'],
  ])('%s counts back from the run clock', (raw, expected) => {
    expect(resolveFriendlyDate(raw, 'start', NOW)).toBe(expected);
    expect(resolveFriendlyDate(raw, 'end', NOW)).toBe(expected);
  });

  it('today runs from the local midnight to the last millisecond before the next one', () => {
    const start = Date.parse(resolveFriendlyDate('today', 'start', NOW)!);
    const end = Date.parse(resolveFriendlyDate('today', 'end', NOW)!);
    expect(start).toBeLessThanOrEqual(NOW);
    expect(end).toBeGreaterThan(NOW);
    expect(new Date(start).getHours()).toBe(0);
    expect(new Date(start).getMinutes()).toBe(0);
    expect(new Date(end + 1).getHours()).toBe(0);
  });

  it('yesterday ends the millisecond before today starts', () => {
    expect(Date.parse(resolveFriendlyDate('yesterday', 'end', NOW)!)).toBe(Date.parse(resolveFriendlyDate('today', 'start', NOW)!) - 1);
    expect(Date.parse(resolveFriendlyDate('yesterday', 'start', NOW)!)).toBeLessThan(Date.parse(resolveFriendlyDate('today', 'start', NOW)!));
  });

  it('a date-time without a zone is the local moment', () => {
    expect(resolveFriendlyDate('2026-01-01T10:00', 'start', NOW)).toBe(new Date(2026, 0, 1, 10, 0).toISOString());
    expect(resolveFriendlyDate('2026-01-01T10:00:30.5', 'start', NOW)).toBe(new Date(2026, 0, 1, 10, 0, 30, 500).toISOString());
  });

  it.each(['2026-02-30T10:00', '2026-01-01T25:00', '3x', 'last week', '', '7', 'tomorrow'])('%j is none of them', (raw) => {
    expect(resolveFriendlyDate(raw, 'start', NOW)).toBeUndefined();
  });
});

describe('canonicalChoice', () => {
  it('matches in any case, - for _, and returns the spelling of the list', () => {
    expect(canonicalChoice('done', ['PLANNED', 'DONE'])).toBe('DONE');
    expect(canonicalChoice('in-progress', ['IN_PROGRESS'])).toBe('IN_PROGRESS');
    expect(canonicalChoice('EN', ['en', 'fr'])).toBe('en');
    expect(canonicalChoice('de', ['en', 'fr'])).toBeUndefined();
  });
});
