import { describe, expect, it } from 'vitest';
import {
  AREAS_BUDGET,
  CLOCK_MARGIN_MS,
  areaCost,
  planQuick,
  touchedEntriesRead,
  waitsForExportLine,
  type QuickFacts,
} from '../../src/mirror/sync/quick.js';

// The quick sync as data (src/mirror/sync/quick.ts): when a sync within the export hour reads only what changed,
// what it reads, and what it says waits for the next export — decided without a server or a mirror.

const SNAPSHOT = Date.parse('2026-06-01T12:00:00Z');
/** The sandbox's 20,000-entry account as the mirror holds it: 8 lists, 1,245 reviews, a page of the others. */
const HELD = { lists: 8, reviews: 1245, achievements: 24, notifications: 40, profile: 1, calendar: 1, stats: 1 };
const facts = (over: Partial<QuickFacts> = {}): QuickFacts => ({
  full: false,
  snapshotAt: SNAPSHOT,
  sameAccount: true,
  withinHour: true,
  held: HELD,
  ...over,
});

describe('when a sync reads only what changed', () => {
  it('within the hour, over a whole earlier sync of the same account', () => {
    expect(planQuick(facts())).toBeDefined();
  });

  it('never with --full, when an export can be had, for a new mirror or for a mirror of another (or no known) account', () => {
    expect(planQuick(facts({ full: true }))).toBeUndefined();
    expect(planQuick(facts({ withinHour: false }))).toBeUndefined();
    expect(planQuick(facts({ snapshotAt: undefined }))).toBeUndefined();
    expect(planQuick(facts({ sameAccount: false }))).toBeUndefined();
  });
});

describe('what a quick sync reads', () => {
  it('the history from the last sync less an hour for a server clock ahead of ours, the library newest added first', () => {
    const plan = planQuick(facts())!;
    expect(CLOCK_MARGIN_MS).toBe(60 * 60 * 1000);
    expect(plan.historyFrom).toBe('2026-06-01T11:00:00.000Z');
    expect(plan.newest).toEqual({ sort: 'added', order: 'desc', limit: 100 });
  });

  it('every collection of a page or two whole; reviews at 13 pages wait for the export', () => {
    const plan = planQuick(facts())!;
    expect(plan.areas).toEqual(['lists', 'achievements', 'notifications', 'profile', 'calendar', 'stats']);
    expect(plan.waiting).toEqual(['reviews']);
  });

  it('a collection of two pages is read, of three waits', () => {
    expect(planQuick(facts({ held: { ...HELD, reviews: 200 } }))!.areas).toContain('reviews');
    expect(planQuick(facts({ held: { ...HELD, reviews: 201 } }))!.waiting).toEqual(['reviews']);
  });

  it("lists cost a request each (their items): many lists wait, within the collections' budget", () => {
    expect(areaCost('lists', 8)).toEqual({ pages: 1, requests: 9 });
    expect(areaCost('profile', 1)).toEqual({ pages: 1, requests: 1 });
    const plan = planQuick(facts({ held: { ...HELD, lists: AREAS_BUDGET } }))!;
    expect(plan.waiting).toEqual(['lists', 'reviews']);
    expect(plan.areas).toEqual(['achievements', 'notifications', 'profile', 'calendar', 'stats']);
  });

  it('all the collections read together stay within the budget', () => {
    const held = { lists: 0, reviews: 200, achievements: 200, notifications: 200, profile: 1, calendar: 1, stats: 1 };
    const plan = planQuick(facts({ held }))!;
    const spent = plan.areas.reduce((sum, area) => sum + areaCost(area, held[area]).requests, 0);
    expect(spent).toBeLessThanOrEqual(AREAS_BUDGET);
    expect([...plan.areas, ...plan.waiting].sort()).toEqual(Object.keys(held).sort());
  });
});

describe('how the entries the new events touch are read', () => {
  it('each one while they are no more than the library has pages, else every page of the library', () => {
    expect(touchedEntriesRead(10, 20_000)).toBe('each');
    expect(touchedEntriesRead(200, 20_000)).toBe('each');
    expect(touchedEntriesRead(201, 20_000)).toBe('library');
    expect(touchedEntriesRead(2, 150)).toBe('each');
    expect(touchedEntriesRead(3, 150)).toBe('library');
    expect(touchedEntriesRead(1, 0)).toBe('each');
  });
});

describe('the one line of what waits for the next export', () => {
  it("names what no listing shows when the account changed undated, the collections too large, the export's time and --full", () => {
    expect(waitsForExportLine({ waiting: ['reviews'], eventsWithoutId: 0, undatedChanges: true, nextExport: '14:05:09 (in 42m)' })).toBe(
      'lk: read only what changed since the last sync; may be waiting for the next export (possible at 14:05:09 (in 42m)): ' +
        'ratings, notes and statuses set without an event; events dated before the last sync; ' +
        'the reviews (too large to read whole within the budget) — lk sync --full reads every page now',
    );
  });

  it('with nothing too large, and with events it could not place', () => {
    expect(waitsForExportLine({ waiting: [], eventsWithoutId: 1, undatedChanges: false, nextExport: undefined })).toBe(
      'lk: read only what changed since the last sync; may be waiting for the next export: 1 event without an id — lk sync --full reads every page now',
    );
    expect(waitsForExportLine({ waiting: ['lists', 'reviews'], eventsWithoutId: 0, undatedChanges: false, nextExport: undefined })).toMatch(
      /: the lists and reviews \(too large to read whole within the budget\) — lk sync --full reads every page now$/,
    );
  });

  it('says nothing when nothing can be waiting: no undated change, nothing too large, every event placed', () => {
    expect(waitsForExportLine({ waiting: [], eventsWithoutId: 0, undatedChanges: false, nextExport: '14:05:09 (in 42m)' })).toBeUndefined();
  });
});

describe('the window of history a quick sync reads', () => {
  it("starts at the newest event the mirror holds when the server's clock is behind ours (its dates are earlier)", () => {
    const behind = SNAPSHOT - 2 * 60 * 60 * 1000;
    expect(planQuick(facts({ newestEventAt: behind }))!.historyFrom).toBe(new Date(behind - CLOCK_MARGIN_MS).toISOString());
    expect(planQuick(facts({ newestEventAt: SNAPSHOT + 1000 }))!.historyFrom).toBe(new Date(SNAPSHOT - CLOCK_MARGIN_MS).toISOString());
  });
});
