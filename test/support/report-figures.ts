import type { DomainFigures, ReportFigures } from '../../src/report/figures.js';

/** Server text a page must show as text: markup, a terminal escape, a bidi override, a quote that ends an attribute. */
export const HOSTILE_TITLE = '<script>alert(1)</script><img src=x onerror=alert(2)>\u001b]0;pwned\u0007 "quoted" \u202eevil';
export const HOSTILE_URL = 'https://app.lk.example/works/1?a="><script>alert(3)</script>';

const months = Array.from({ length: 12 }, (_, index) => `2025-${String(index + 1).padStart(2, '0')}`);
const byMonth = (scale: number) => months.map((_, index) => ((index * 7 + scale) % 11) * scale);

function domain(scale: number, time: DomainFigures['time']): DomainFigures {
  const timeByMonth: DomainFigures['timeByMonth'] = {};
  for (const unit of Object.keys(time) as (keyof typeof time)[]) timeByMonth[unit] = time[unit] === null ? null : byMonth(scale * 30);
  return {
    events: byMonth(scale).reduce((a, b) => a + b, 0),
    finished: byMonth(1).reduce((a, b) => a + b, 0),
    time,
    eventsByMonth: byMonth(scale),
    finishedByMonth: byMonth(1),
    timeByMonth,
    topRated: [
      { title: HOSTILE_TITLE, rating: 10, url: HOSTILE_URL, entryId: 'e1' },
      { title: 'Amélie', rating: 9, url: 'https://app.lk.example/works/2', entryId: 'e2' },
      { title: null, rating: 8, url: null, entryId: 'e3' },
    ],
    ratings: [
      { rating: 7, entries: 2 },
      { rating: 9, entries: 1 },
      { rating: 10, entries: 1 },
    ],
    repeats: scale,
    longestStreak: { days: 9, from: '2025-03-02', to: '2025-03-10' },
    weekdays: [3, 1, 4, 1, 5, 9, 2].map((n) => n * scale),
    busiestWeekday: 5,
    first: { date: '2025-01-01T09:00:00.000Z', title: HOSTILE_TITLE, kind: 'FILM_SEEN', domain: 'MEDIA' },
    last: { date: '2025-12-30T21:00:00.000Z', title: 'Amélie', kind: 'FILM_SEEN', domain: 'MEDIA' },
    previous: { events: 10 * scale, finished: 3, time },
  };
}

/** A year's figures as `lk report --json` gives them, for the page's tests on any Node (no mirror needed). */
export function sampleFigures(): ReportFigures {
  return {
    period: { from: '2025-01-01', to: '2025-12-31', label: '2025' },
    previousPeriod: { from: '2024-01-01', to: '2024-12-31' },
    timeZone: 'Europe/London',
    account: { username: 'demo', displayName: HOSTILE_TITLE },
    months,
    total: domain(4, { minutes: 12_345, pages: 2_000, albums: 12 }),
    domains: { MEDIA: domain(2, { minutes: 9_000 }), BOOKS: domain(1, { pages: null }) },
    undated: { events: 42, byDomain: { MEDIA: 40, BOOKS: 2 } },
  };
}
