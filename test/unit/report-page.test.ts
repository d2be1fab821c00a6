import { describe, expect, it } from 'vitest';
import { previousOf } from '../../src/report/figures.js';
import { reportPage } from '../../src/report/page.js';
import { defaultFileName, reportPeriod, withinDataYears } from '../../src/report/period.js';
import { localToday, TimeZone } from '../../src/report/time-zone.js';
import { UsageError } from '../../src/util/errors.js';
import { sampleFigures } from '../support/report-figures.js';

const page = reportPage(sampleFigures(), '2026-01-02T10:00:00.000Z');

describe('the report page', () => {
  it('forbids every request in a Content-Security-Policy meta tag, inline styles aside', () => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page)?.[1];
    expect(csp).toBe("default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'");
  });

  it('holds no script and loads nothing: no src attribute, no url(), links only to the web app and its own sections', () => {
    expect(page).not.toMatch(/<script/i);
    expect(page).not.toMatch(/<[a-z][^>]*\ssrc=/i);
    expect(page).not.toMatch(/url\(|@import/i);
    const hrefs = [...page.matchAll(/href="([^"]*)"/g)].map((match) => match[1]!);
    expect(hrefs.length).toBeGreaterThan(0);
    for (const href of hrefs) expect(href).toMatch(/^(#[a-z]+|https:\/\/app\.lk\.example\/)/);
  });

  it('shows server text as text: markup escaped, terminal escapes and bidi overrides defused as in the terminal', () => {
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;');
    expect(page).toContain('&quot;quoted&quot;');
    expect(page).not.toMatch(/[\u001b\u0007\u202e]/);
    expect(page).toContain('\uFFFD]0;pwned\uFFFD');
    expect(page).toContain('href="https://app.lk.example/works/1?a=&quot;&gt;&lt;script&gt;alert(3)&lt;/script&gt;"');
  });

  it('puts a table of the numbers beside every chart', () => {
    const figures = [...page.matchAll(/<figure class="chart-with-table">([\s\S]*?)<\/figure>/g)].map((match) => match[1]!);
    expect(figures.length).toBe((page.match(/<svg/g) ?? []).length);
    expect(figures.length).toBeGreaterThanOrEqual(5);
    for (const figure of figures) expect(figure).toMatch(/<svg[\s\S]*<\/svg>[\s\S]*<table>/);
  });

  it("gives the charts' months their year where the period spans years: the first month and each January", () => {
    const figures = sampleFigures();
    const months = ['2024-11', '2024-12', '2025-01', '2025-02'];
    const spanning = reportPage({ ...figures, months }, '2026-01-02T10:00:00.000Z');
    const labels = [...spanning.matchAll(/<text[^>]*>([A-Z][a-z]{2}(?: \d{4})?)<\/text>/g)].map((match) => match[1]);
    expect(labels).toEqual(expect.arrayContaining(['Nov 2024', 'Dec', 'Jan 2025', 'Feb']));
    expect(labels).not.toContain('Jan');
  });

  it('charts every step of the rating scale, those no work has: 8 between 7 and 9, 1 to 6 as zeros', () => {
    const table = /rating distribution[^<]*<\/caption>[\s\S]*?<\/table>/.exec(page)?.[0] ?? '';
    const rows = [...table.matchAll(/<tr><th scope="row">(\d+)<\/th><td class="n">(\d+)<\/td><\/tr>/g)].map((match) => [match[1], match[2]]);
    expect(rows).toEqual(Array.from({ length: 10 }, (_, i) => [String(i + 1), { 7: '2', 9: '1', 10: '1' }[i + 1] ?? '0']));
  });

  it('a year so far charts its months up to the one it covers: no December of zeros in November', () => {
    const figures = sampleFigures();
    const soFar = reportPage({ ...figures, period: { ...figures.period, through: '2025-11-27' } }, '2025-11-27T10:00:00.000Z');
    const monthRows = (html: string) => [...html.matchAll(/<th scope="row">([A-Z][a-z]{2})<\/th>/g)].map((match) => match[1]);
    expect(monthRows(page)).toContain('Dec');
    expect(monthRows(soFar)).toContain('Nov');
    expect(monthRows(soFar)).not.toContain('Dec');
  });

  it('says how many events have no date, apart from every month', () => {
    expect(page).toContain('42 events in the mirror have no date (Video 40, Books 2)');
  });

  it('says a figure the server did not send is not recorded, instead of a zero', () => {
    expect(page).toContain('not recorded');
  });

  it('is styled for dark mode and for print', () => {
    expect(page).toContain('@media (prefers-color-scheme: dark)');
    expect(page).toContain('@media print');
  });
});

describe('the period of a report', () => {
  it('is the last complete year by default, and this year so far in December', () => {
    expect(reportPeriod({}, '2026-11-24')).toEqual({ from: '2025-01-01', to: '2025-12-31', label: '2025' });
    expect(reportPeriod({}, '2026-12-01')).toEqual({ from: '2026-01-01', to: '2026-12-31', label: '2026', through: '2026-12-01' });
  });

  it('says a period that ends after today is reviewed so far', () => {
    const figures = { ...sampleFigures(), period: reportPeriod({ year: '2025' }, '2025-11-24') };
    expect(reportPage(figures, '2025-11-24T10:00:00.000Z')).toContain('1 January 2025 to 24 November 2025, so far');
    expect(page).toContain('1 January 2025 to 31 December 2025 ·');
  });

  it('takes the days lk feed takes: 30d, 2w, today, yesterday, counted back from today', () => {
    expect(reportPeriod({ from: '30d' }, '2026-03-10')).toMatchObject({ from: '2026-02-08', to: '2026-03-10' });
    expect(reportPeriod({ from: '2w', to: 'yesterday' }, '2026-01-05')).toMatchObject({ from: '2025-12-22', to: '2026-01-04' });
    expect(reportPeriod({ from: 'Today' }, '2026-01-05')).toMatchObject({ from: '2026-01-05', to: '2026-01-05' });
    expect(() => reportPeriod({ from: '12h' }, '2026-01-05')).toThrow(/expected a day like 2025-03-01, 7d, 2w, today or yesterday/);
  });

  it('compares a year so far with the same days of the year before, and says so; a whole year with the whole year before', () => {
    expect(previousOf(reportPeriod({ year: '2026' }, '2026-11-26'))).toEqual({ from: '2025-01-01', to: '2025-11-26' });
    expect(previousOf(reportPeriod({ year: '2028' }, '2028-02-29'))).toEqual({ from: '2027-01-01', to: '2027-02-28' });
    expect(previousOf(reportPeriod({ year: '2025' }, '2026-11-26'))).toEqual({ from: '2024-01-01', to: '2024-12-31' });
    expect(previousOf(reportPeriod({ from: '2026-11-01', to: '2026-12-31' }, '2026-11-10'))).toEqual({ from: '2026-10-22', to: '2026-10-31' });
    const period = reportPeriod({ year: '2025' }, '2025-11-24');
    const soFar = reportPage({ ...sampleFigures(), period, previousPeriod: previousOf(period) }, '2025-11-24T10:00:00.000Z');
    expect(soFar).toContain('Compared with 1 January 2024 to 24 November 2024.');
    expect(soFar).toContain('on the same days of 2024');
    expect(soFar).not.toMatch(/on 2024 \(/);
    expect(page).toContain('Compared with 1 January 2024 to 31 December 2024.');
    expect(page).toMatch(/on 2024 \(/);
  });

  it('is any days with --from and --to, --to defaulting to today', () => {
    expect(reportPeriod({ from: '2025-06-01', to: '2025-08-31' }, '2026-11-24').label).toBe('2025-06-01 to 2025-08-31');
    expect(reportPeriod({ from: '2026-06-01' }, '2026-11-24').to).toBe('2026-11-24');
  });

  it.each([
    [{ year: '25' }, /invalid --year "25"/],
    [{ year: '2025', from: '2025-01-01' }, /--year or --from\/--to, not both/],
    [{ to: '2025-01-01' }, /--to needs --from/],
    [{ from: '2025-02-30' }, /invalid --from "2025-02-30"/],
    [{ from: '2025-09-01', to: '2025-08-31' }, /is after --to/],
  ])('refuses %j as a usage error', (flags, message) => {
    expect(() => reportPeriod(flags, '2026-11-24')).toThrow(UsageError);
    expect(() => reportPeriod(flags, '2026-11-24')).toThrow(message);
  });

  it('names its default file after the year, or the first and last day', () => {
    expect(defaultFileName(reportPeriod({ year: '2024' }, '2026-11-24'))).toBe('lk-report-2024.html');
    expect(defaultFileName(reportPeriod({ from: '2025-06-01', to: '2025-08-31' }, '2026-11-24'))).toBe('lk-report-2025-06-01-to-2025-08-31.html');
  });
});

describe('days in the account time zone', () => {
  const london = new TimeZone('Europe/London');

  it('puts an evening event of summer time on the next day when UTC is still on the day before', () => {
    expect(london.localDate(Date.parse('2025-10-25T23:30:00Z'))).toMatchObject({ year: 2025, month: 10, day: 26, weekday: 6 });
    expect(london.localDate(Date.parse('2025-12-31T23:30:00Z'))).toMatchObject({ year: 2025, month: 12, day: 31, weekday: 2 });
  });

  it('finds local midnight across a change of offset', () => {
    expect(new Date(london.startOfDay(2025, 3, 31)).toISOString()).toBe('2025-03-30T23:00:00.000Z');
    expect(new Date(new TimeZone('Asia/Kolkata').startOfDay(2025, 1, 1)).toISOString()).toBe('2024-12-31T18:30:00.000Z');
    expect(new Date(new TimeZone('America/St_Johns').startOfDay(2025, 7, 1)).toISOString()).toBe('2025-07-01T02:30:00.000Z');
  });

  it('gives a year as the spans between its changes of offset, found to the minute', () => {
    const year = london.offsetSegments(Date.parse('2025-01-01T00:00:00Z'), Date.parse('2026-01-01T00:00:00Z'));
    expect(year.map(({ until, offset }) => [new Date(until).toISOString(), offset / 60_000])).toEqual([
      ['2025-03-30T01:00:00.000Z', 0],
      ['2025-10-26T01:00:00.000Z', 60],
      ['2026-01-01T00:00:00.000Z', 0],
    ]);
    expect(new TimeZone('Asia/Kolkata').offsetSegments(0, 86_400_000 * 400)).toEqual([{ until: 86_400_000 * 400, offset: 330 * 60_000 }]);
  });

  it('counts the day of a change of offset by the offset at each instant', () => {
    // 2025-03-30 01:00 UTC: London goes from GMT to BST.
    expect(london.localDate(Date.parse('2025-03-30T00:59:00Z')).day).toBe(30);
    expect(london.offsetAt(Date.parse('2025-03-30T00:59:00Z'))).toBe(0);
    expect(london.offsetAt(Date.parse('2025-03-30T01:00:00Z'))).toBe(3_600_000);
    expect(localToday(Date.parse('2025-06-30T23:30:00Z'), 'Europe/London')).toBe('2025-07-01');
  });
});

// Issue 57: the MCP stats tool over 0001-01-01 to 9999-12-31 made 120,000 months of zeros.
describe('a period within the years that hold data', () => {
  const today = '2026-06-15';
  const years = { first: 2020, last: 2026 };
  const period = (from: string, to: string) => reportPeriod({ from, to }, today);

  it('is cut to those years (and this one) when it reaches past them; as given within them', () => {
    expect(withinDataYears(period('0001-01-01', '9999-12-31'), years, today)).toEqual({
      from: '2020-01-01',
      to: '2026-12-31',
      label: '2020-01-01 to 2026-12-31',
      through: today,
    });
    for (const [from, to] of [
      ['2021-03-01', '2021-08-31'],
      ['2020-01-01', '2026-06-15'],
    ]) {
      const asked = period(from!, to!);
      expect(withinDataYears(asked, years, today)).toBe(asked);
    }
    const year = reportPeriod({ year: '2024' }, today);
    expect(withinDataYears(year, years, today)).toBe(year);
  });

  it('a period wholly outside them is cut to its first year; no data at all, to this year', () => {
    expect(withinDataYears(period('0001-01-01', '1500-12-31'), years, today)).toMatchObject({ from: '0001-01-01', to: '0001-12-31' });
    expect(withinDataYears(period('1990-01-01', '9999-12-31'), undefined, today)).toMatchObject({ from: '2026-01-01', to: '2026-12-31' });
  });
});
