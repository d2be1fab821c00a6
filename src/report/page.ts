import { sanitizeText } from '../output/terminal/sanitize.js';
import { DOMAIN_LABELS, DOMAINS, type Domain } from '../vocabulary.js';
import { barChartSvg, type BarSeries } from './charts.js';
import { type DomainFigures, type Moment, type ReportFigures, type Summary, type TimeUnit } from './figures.js';
import { REPORT_CSS } from './page-style.js';

/**
 * The year in review as one HTML file that needs nothing else: charts are inline SVG, styles inline, fonts the
 * system's, no script; a Content-Security-Policy forbids any request. Every chart has its numbers in a table beside
 * it. Server text (titles) is made harmless the way the terminal does (sanitizeText) and then escaped for HTML.
 */

// Styles inline (the <style> element and ECharts' style attributes) and nothing else: no script, font, image,
// frame, form or connection, not even to the file's own folder.
const CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

const DOMAIN_COLOURS: Record<Domain, string> = { MEDIA: '#5b8ff9', GAMES: '#e8684a', BOOKS: '#3fb58a', MUSIC: '#d9a512' };
const TOTAL_COLOUR = '#7b6cd9';
const REPEATS: Record<Domain | 'total', string> = {
  MEDIA: 'rewatches',
  GAMES: 'replays',
  BOOKS: 'rereads',
  MUSIC: 'relistens',
  total: 'rewatches, replays and rereads',
};
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const KINDS: Record<string, string> = {
  EPISODE_SEEN: 'episode seen',
  FILM_SEEN: 'film seen',
  GAME_SESSION: 'game session',
  READING_SESSION: 'reading session',
  GAME_FINISHED: 'game finished',
  BOOK_FINISHED: 'book finished',
  ALBUM_FINISHED: 'album finished',
};

/** Server text → safe HTML text: controls and bidi overrides defused as in the terminal, then escaped. */
export function escapeHtml(text: string): string {
  return sanitizeText(text).replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);
}

// Each toLocaleString with a locale makes an Intl formatter of its own; a year page formats thousands of numbers and
// dates, a site every year's page: one formatter each, made when a page first needs it.
let formats: { count: Intl.NumberFormat; tenths: Intl.NumberFormat; day: Intl.DateTimeFormat } | undefined;
function formatsOnce(): NonNullable<typeof formats> {
  formats ??= {
    count: new Intl.NumberFormat('en-US'),
    tenths: new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }),
    day: new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }),
  };
  return formats;
}
const count = (n: number) => formatsOnce().count.format(n);
const tenths = (n: number) => formatsOnce().tenths.format(n);
const hours = (minutes: number) => tenths(minutes / 60);
const monthLabel = (key: string) => MONTHS[Number(key.slice(5, 7)) - 1]!;
const dayLabel = (iso: string) => formatsOnce().day.format(new Date(`${iso.slice(0, 10)}T12:00:00Z`));

function unitValue(unit: TimeUnit, value: number): string {
  return unit === 'minutes' ? hours(value) : count(value);
}

function unitName(unit: TimeUnit, domain: Domain | 'total'): string {
  if (unit === 'minutes') return domain === 'GAMES' ? 'hours played' : domain === 'MEDIA' ? 'hours watched' : 'hours watched and played';
  return unit === 'pages' ? 'pages read' : 'albums listened to';
}

function change(now: number, before: number, label: string): string {
  if (before === 0) return now === 0 ? '' : `<span class="delta">new against ${label}</span>`;
  const percent = Math.round(((now - before) / before) * 100);
  const sign = percent > 0 ? '+' : percent < 0 ? '−' : '±';
  return `<span class="delta">${sign}${Math.abs(percent)}% on ${label} (${count(before)})</span>`;
}

function table(caption: string, head: string[], rows: string[][]): string {
  const headCells = head.map((cell, index) => `<th scope="col"${index ? ' class="n"' : ''}>${cell}</th>`).join('');
  const body = rows.map(
    (row) => `<tr>${row.map((cell, index) => (index ? `<td class="n">${cell}</td>` : `<th scope="row">${cell}</th>`)).join('')}</tr>`,
  );
  return `<table><caption>${caption}</caption><thead><tr>${headCells}</tr></thead><tbody>${body.join('')}</tbody></table>`;
}

/** A chart and its numbers, side by side on a wide screen, one above the other on a phone or paper. */
function figure(title: string, chart: string, numbers: string): string {
  return `<figure class="chart-with-table"><figcaption>${title}</figcaption><div class="chart">${chart}</div><div class="numbers">${numbers}</div></figure>`;
}

interface Section {
  key: Domain | 'total';
  name: string;
  figures: DomainFigures;
}

/** The months a chart shows: those of a year so far up to the month it covers (no December of zeros in November). */
function monthsShown(figures: ReportFigures): string[] {
  const { through } = figures.period;
  return through === undefined ? figures.months : figures.months.filter((month) => month <= through.slice(0, 7));
}

function monthlyFigure(title: string, figures: ReportFigures, sections: Section[], values: (section: Section) => number[], format = count): string {
  const months = monthsShown(figures);
  const series: BarSeries[] = sections.map((section) => ({
    name: section.name,
    values: values(section).slice(0, months.length),
    colour: section.key === 'total' ? TOTAL_COLOUR : DOMAIN_COLOURS[section.key],
  }));
  const multi = sections.length > 1;
  const head = ['Month', ...sections.map((section) => section.name), ...(multi ? ['All'] : [])];
  const oneYear = months.every((month) => month.slice(0, 4) === months[0]!.slice(0, 4));
  const rows = months.map((month, index) => {
    const cells = sections.map((section) => values(section)[index] ?? 0);
    return [
      oneYear ? monthLabel(month) : `${monthLabel(month)} ${month.slice(0, 4)}`,
      ...cells.map(format),
      ...(multi ? [format(cells.reduce((a, b) => a + b, 0))] : []),
    ];
  });
  // Over more than one year, the first month and each January carry their year: Nov 2025, Dec, Jan 2026, Feb…
  const categories = months.map((month, index) =>
    oneYear || (index > 0 && !month.endsWith('-01')) ? monthLabel(month) : `${monthLabel(month)} ${month.slice(0, 4)}`,
  );
  const chart = barChartSvg({ label: title, categories, series });
  return figure(title, chart, table(title, head, rows));
}

function momentText(moment: Moment | null): string {
  if (!moment) return '—';
  const kind = moment.kind ? (KINDS[moment.kind] ?? moment.kind.toLowerCase().replace(/_/g, ' ')) : 'event';
  return `<strong>${moment.title === null ? '(untitled)' : escapeHtml(moment.title)}</strong>, ${escapeHtml(kind)} on ${dayLabel(moment.date)}`;
}

function timeFacts(section: Section, previousLabel: string): string[] {
  const facts: string[] = [];
  for (const [unit, value] of Object.entries(section.figures.time) as [TimeUnit, number | null][]) {
    const name = unitName(unit, section.key);
    if (value === null) {
      facts.push(fact('not recorded', name, '<span class="delta">the server sent no such figure with these events</span>'));
      continue;
    }
    const before = section.figures.previous.time[unit] ?? 0;
    facts.push(
      fact(
        unitValue(unit, value),
        name,
        change(unit === 'minutes' ? Math.round(value / 60) : value, unit === 'minutes' ? Math.round(before / 60) : before, previousLabel),
      ),
    );
  }
  return facts;
}

function fact(value: string, label: string, note = ''): string {
  return `<div class="fact"><span class="value">${value}</span> <span class="label">${label}</span>${note ? ` ${note}` : ''}</div>`;
}

function facts(section: Section, previousLabel: string): string {
  const f = section.figures;
  const streak = f.longestStreak;
  const items = [
    fact(count(f.events), 'events', change(f.events, f.previous.events, previousLabel)),
    fact(count(f.finished), 'works finished', change(f.finished, f.previous.finished, previousLabel)),
    ...timeFacts(section, previousLabel),
    fact(count(f.repeats), REPEATS[section.key]),
    fact(
      streak ? count(streak.days) : '0',
      streak?.days === 1 ? 'day in a row, the longest streak' : 'days in a row, the longest streak',
      streak ? `<span class="delta">${dayLabel(streak.from)} to ${dayLabel(streak.to)}</span>` : '',
    ),
    fact(f.busiestWeekday === null ? '—' : WEEKDAYS[f.busiestWeekday]!, 'the busiest day of the week'),
  ];
  return `<div class="facts">${items.join('')}</div>`;
}

function firstAndLast(f: DomainFigures): string {
  return `<dl class="moments"><dt>First</dt><dd>${momentText(f.first)}</dd><dt>Last</dt><dd>${momentText(f.last)}</dd></dl>`;
}

function topRated(f: DomainFigures): string {
  if (f.topRated.length === 0) return '<p class="quiet">No rated work was active in this period.</p>';
  const items = f.topRated.map((work) => {
    const title = work.title === null ? '(untitled)' : escapeHtml(work.title);
    const link = work.url ? `<a href="${escapeHtml(work.url)}" rel="noreferrer">${title}</a>` : title;
    return `<li>${link} <span class="rating">${count(work.rating)}</span></li>`;
  });
  return `<h3>Top rated</h3><ol class="top">${items.join('')}</ol>`;
}

/** One series of counts: a short chart of bars and its two-column table. */
function countsFigure(title: string, head: [string, string], rows: { axis: string; row: string; value: number }[], colour: string): string {
  const chart = barChartSvg({
    label: title,
    categories: rows.map((r) => r.axis),
    series: [{ name: head[1].toLowerCase(), values: rows.map((r) => r.value), colour }],
    short: true,
  });
  return figure(
    title,
    chart,
    table(
      title,
      head,
      rows.map((r) => [r.row, count(r.value)]),
    ),
  );
}

/**
 * Every step of the scale, those no work has included: a bar chart's axis is evenly spaced, so a missing 3 would put
 * 4 where 3 belongs. Whole ratings up to 10 are read as a 1–5 or 1–10 scale (the smallest that holds them); others
 * (a 1–100 scale, halves) are charted as they come.
 */
function ratingSteps(ratings: DomainFigures['ratings']): DomainFigures['ratings'] {
  const highest = Math.max(...ratings.map((r) => r.rating));
  if (!ratings.every((r) => Number.isInteger(r.rating) && r.rating >= 1) || highest > 10) return ratings;
  const entries = new Map(ratings.map((r) => [r.rating, r.entries]));
  return Array.from({ length: highest <= 5 ? 5 : 10 }, (_, i) => ({ rating: i + 1, entries: entries.get(i + 1) ?? 0 }));
}

function ratingsFigure(f: DomainFigures, name: string, colour: string): string {
  if (f.ratings.length === 0) return '';
  const rows = ratingSteps(f.ratings).map((r) => ({ axis: count(r.rating), row: count(r.rating), value: r.entries }));
  return countsFigure(`${name}: rating distribution of the works active in the period`, ['Rating', 'Works'], rows, colour);
}

function weekdaysFigure(f: DomainFigures): string {
  const rows = WEEKDAYS.map((day, index) => ({ axis: day.slice(0, 3), row: day, value: f.weekdays[index] ?? 0 }));
  return countsFigure('Events by day of the week', ['Day', 'Events'], rows, TOTAL_COLOUR);
}

function domainSection(section: Section & { key: Domain }, figures: ReportFigures, previousLabel: string): string {
  const f = section.figures;
  if (f.events === 0 && f.finished === 0) {
    return `<section class="domain" id="${section.key.toLowerCase()}"><h2>${section.name}</h2><p class="quiet">Nothing in this period.</p></section>`;
  }
  const timeCharts = (Object.entries(f.timeByMonth) as [TimeUnit, number[] | null][])
    .filter(([, values]) => values !== null)
    .map(([unit, values]) => {
      const name = unitName(unit, section.key);
      const title = `${section.name}: ${name} by month`;
      const shown = unit === 'minutes' ? values!.map((minutes) => Math.round(minutes / 6) / 10) : values!;
      return monthlyFigure(title, figures, [section], () => shown, tenths);
    });
  return `<section class="domain" id="${section.key.toLowerCase()}">
<h2>${section.name}</h2>
${facts(section, previousLabel)}
${firstAndLast(f)}
${timeCharts.join('\n')}
${topRated(f)}
${ratingsFigure(f, section.name, DOMAIN_COLOURS[section.key])}
</section>`;
}

function notes(figures: ReportFigures): string {
  const undated = figures.undated;
  const undatedText =
    undated.events === 0
      ? 'Every event in the mirror has a date.'
      : `${count(undated.events)} event${undated.events === 1 ? '' : 's'} in the mirror ${undated.events === 1 ? 'has' : 'have'} no date (${DOMAINS.filter(
          (d) => undated.byDomain[d],
        )
          .map((d) => `${DOMAIN_LABELS[d]} ${count(undated.byDomain[d]!)}`)
          .join(', ')}), often from an import: they belong to no month, no streak and no year, and are counted here alone.`;
  return `<section class="notes"><h2>What these numbers can and cannot say</h2><ul>
<li>${undatedText}</li>
<li>Days, months and weekdays are counted in ${escapeHtml(figures.timeZone)}, the time zone of the account's profile.</li>
<li>A work counts as finished in the month its entry says it was finished; ratings are the entries' ratings today, not as they stood then.</li>
<li>Time spent is the sum of what the events record: a session logged without minutes or pages adds nothing.</li>
<li>Made on this computer by lk from the local mirror. This file loads nothing from anywhere.</li>
</ul></section>`;
}

function summaryOf(figures: ReportFigures, sections: Section[], previousLabel: string): string {
  const total: Section = { key: 'total', name: 'All', figures: figures.total };
  const rows = sections.map((section) => {
    const s: Summary = section.figures;
    const time = (Object.entries(s.time) as [TimeUnit, number | null][])
      .map(([unit, value]) =>
        value === null ? `${unitName(unit, section.key)}: not recorded` : `${unitValue(unit, value)} ${unitName(unit, section.key)}`,
      )
      .join(', ');
    return [section.name, count(s.events), count(s.finished), time || '—'];
  });
  return `${facts(total, previousLabel)}
${firstAndLast(figures.total)}
${table('The period in numbers, by domain', ['Domain', 'Events', 'Finished', 'Time spent'], rows)}`;
}

/** What the changes are against, in words: 2025; the same days of 2025 (a year so far); the period before. */
function comparedWith({ previousPeriod: { from, to } }: ReportFigures): string {
  if (from.slice(0, 4) !== to.slice(0, 4) || !from.endsWith('-01-01')) return 'the period before';
  return to.endsWith('-12-31') ? from.slice(0, 4) : `the same days of ${from.slice(0, 4)}`;
}

export function reportPage(figures: ReportFigures, generatedAt: string): string {
  const sections = DOMAINS.flatMap((key) => {
    const domain = figures.domains[key];
    return domain ? [{ key, name: DOMAIN_LABELS[key], figures: domain }] : [];
  });
  const label = figures.period.label;
  const previousLabel = comparedWith(figures);
  const who = figures.account.displayName ?? figures.account.username;
  const title = `${who ? `${escapeHtml(who)}: ` : ''}${escapeHtml(label)} in review`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<meta name="generator" content="lk report">
<title>${title}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<header>
<h1>${title}</h1>
<p class="period">${dayLabel(figures.period.from)} to ${figures.period.through ? `${dayLabel(figures.period.through)}, so far` : dayLabel(figures.period.to)} · ${escapeHtml(figures.timeZone)} · made ${dayLabel(generatedAt)}</p>
<p class="period">Compared with ${dayLabel(figures.previousPeriod.from)} to ${dayLabel(figures.previousPeriod.to)}.</p>
<nav>${sections.map((s) => `<a href="#${s.key.toLowerCase()}">${s.name}</a>`).join(' ')}</nav>
</header>
<main>
<section class="overview">
<h2>The year at a glance</h2>
${summaryOf(figures, sections, previousLabel)}
${monthlyFigure('Events by month', figures, sections, (s) => s.figures.eventsByMonth)}
${monthlyFigure('Works finished by month', figures, sections, (s) => s.figures.finishedByMonth)}
${weekdaysFigure(figures.total)}
${topRated(figures.total)}
${ratingsFigure(figures.total, 'All domains', TOTAL_COLOUR)}
</section>
${sections.map((section) => domainSection(section, figures, previousLabel)).join('\n')}
${notes(figures)}
</main>
</body>
</html>
`;
}
