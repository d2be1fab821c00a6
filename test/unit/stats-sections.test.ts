import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { barOf, breakdownOf, breakdownOfParts, sectionsText } from '../../src/output/formats/sections.js';

const plain = { now: Date.parse('2026-03-01T12:00:00Z'), colors: pc.createColors(false) };
const coloured = { ...plain, colors: pc.createColors(true) };

describe('proportional bars', () => {
  it('draw a full cell per eighth-complete step and end with a partial block, padded to the bar width', () => {
    expect(barOf(10, 10, 10)).toBe('██████████');
    expect(barOf(45, 100, 10)).toBe('████▌     ');
    expect(barOf(0, 10, 4)).toBe('    ');
  });

  it('never draw a count above zero as nothing', () => {
    expect(barOf(1, 10_000, 10)).toBe('▏         ');
  });
});

describe('what counts as a breakdown', () => {
  it('counts keyed by labels (phases, domains, ratings 1 to 10)', () => {
    expect(breakdownOf('byPhase', { PLANNED: 3, DONE: 5 })).toEqual([
      ['PLANNED', 3],
      ['DONE', 5],
    ]);
    expect(breakdownOf('distribution', { '1': 0, '2': 4 })).toEqual([
      ['1', 0],
      ['2', 4],
    ]);
    expect(breakdownOf('anything', { MEDIA: 2, BOOKS: 1 })).toEqual([
      ['MEDIA', 2],
      ['BOOKS', 1],
    ]);
  });

  it('counts named by/per something, whatever their keys', () => {
    expect(breakdownOf('byType', { film: 79, series: 47 })).toEqual([
      ['film', 79],
      ['series', 47],
    ]);
  });

  it('not totals of different kinds, a single count, negatives, all zeros or non-numbers', () => {
    expect(breakdownOf('totals', { entries: 250, rated: 124, averageRating: 6.3 })).toBeUndefined();
    expect(breakdownOf('counts', { entries: 250, lists: 8, reviews: 15 })).toBeUndefined();
    expect(breakdownOf('byType', { game: 40 })).toBeUndefined();
    expect(breakdownOf('byPhase', { PLANNED: -1, DONE: 5 })).toBeUndefined();
    expect(breakdownOf('byPhase', { PLANNED: 0, DONE: 0 })).toBeUndefined();
    expect(breakdownOf('byPhase', { PLANNED: 1, DONE: '5' })).toBeUndefined();
  });

  it('parts that carry their own count (per domain: entries)', () => {
    expect(breakdownOfParts({ MEDIA: { entries: 3, rated: 1 }, BOOKS: { entries: 1 } })).toEqual({
      field: 'entries',
      counts: [
        ['MEDIA', 3],
        ['BOOKS', 1],
      ],
    });
    expect(
      breakdownOfParts([
        { domain: 'MEDIA', count: 2 },
        { domain: 'GAMES', count: 1 },
      ]),
    ).toEqual({
      field: 'count',
      counts: [
        ['MEDIA', 2],
        ['GAMES', 1],
      ],
    });
    expect(breakdownOfParts({ MEDIA: { rated: 1 }, BOOKS: { rated: 2 } })).toBeUndefined();
  });
});

describe('lk stats in a table', () => {
  const summary = {
    totals: { entries: 10, rated: 4, averageRating: 7.5 },
    byPhase: { PLANNED: 2, IN_PROGRESS: 1, DONE: 6, DROPPED: 1 },
    byDomain: { MEDIA: { entries: 8, byStatus: { WATCHING: 1, COMPLETED: 7 } }, BOOKS: { entries: 2 } },
    mystery: { shape: 'unknown', nested: { deeper: true } },
  };

  it('shows breakdowns as bars with their share, and totals as plain figures', () => {
    const text = sectionsText(summary, plain, 80);
    expect(text).toContain('Totals\n  Entries          10\n  Rated             4\n  Average rating  7.5\n');
    expect(text).toMatch(/^ {2}DONE {9}6 {2}█{24} {3}60%$/m);
    expect(text).toMatch(/^ {2}IN_PROGRESS {2}1 {2}████ {23}10%$/m);
    expect(text).not.toMatch(/Entries +10 +█/);
  });

  it('shows the parts of a section by their count first (per domain), then each part', () => {
    const text = sectionsText(summary, plain, 80);
    expect(text).toContain(
      `By domain (entries)\n  MEDIA  8  ${'█'.repeat(24)}   80%\n  BOOKS  2  ██████ {18}   20%\n\n`.replace(' {18}', ' '.repeat(18)),
    );
    expect(text).toMatch(/^ {2}MEDIA\n {4}Entries {2}8\n {4}By status\n {6}WATCHING {3}1 {2}/m);
  });

  it('falls back to keys and values for what it does not know', () => {
    expect(sectionsText(summary, plain, 80)).toContain('Mystery\n  Shape  unknown\n  Nested\n    Deeper  true\n');
  });

  it('colours phases and statuses by phase, bars included', () => {
    const text = sectionsText(summary, coloured, 80);
    expect(text).toContain(pc.green('DONE       '));
    expect(text).toContain(pc.green('█'.repeat(24)));
    // WATCHING is a status of the IN_PROGRESS phase (SPEC.md §3).
    expect(text).toContain(pc.yellow('WATCHING '));
  });

  it('leaves the bars out where the terminal is too narrow for them, keeping counts and shares', () => {
    const text = sectionsText({ byPhase: { PLANNED: 2, DONE: 6 } }, plain, 24);
    expect(text).toBe('By phase\n  PLANNED  2   25%\n  DONE     6   75%\n');
  });
});
