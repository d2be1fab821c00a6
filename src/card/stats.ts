import type { StatsCardData } from '../readings/cards.js';
import { CARD_WIDTH, count, decimal, frame, label, PAD, xmlText, type Theme } from './svg.js';
import { domainClass, domainName, plural, whose } from './words.js';

/** The stats card: entries by domain (a bar and one row each), finished this year, the rating average. */
export function statsCard(data: StatsCardData, theme: Theme): string {
  const title = whose(data.name, 'library');
  const inner = CARD_WIDTH - 2 * PAD;
  const body = [label({ x: PAD, y: 36, text: title, room: inner, size: 18, bold: true, tone: 't' })];
  // The entries of each domain as one bar, split in proportion.
  let x = PAD;
  const domains = data.byDomain.filter((row) => row.entries > 0);
  for (const row of domains) {
    const width = Math.round((row.entries / data.entries) * inner * 10) / 10;
    body.push(
      `<rect x="${x}" y="50" width="${width}" height="8" class="${domainClass(row.domain)}"><title>${xmlText(`${domainName(row.domain)}: ${count(row.entries)}`)}</title></rect>`,
    );
    x = Math.round((x + width) * 10) / 10;
  }
  if (domains.length === 0) body.push(`<rect x="${PAD}" y="50" width="${inner}" height="8" class="l0"/>`);
  // Two columns of rows: each domain on the left, the totals on the right.
  const column = (inner - 30) / 2;
  const right = PAD + column + 30;
  const row = (left: number, y: number, name: string, value: string, dot?: string) => {
    const shift = dot ? 14 : 0;
    return [
      dot ? `<circle cx="${left + 4}" cy="${y - 4.5}" r="4.5" class="${dot}"/>` : '',
      label({ x: left + shift, y, text: name, room: column - shift - 70, tone: 'm' }),
      label({ x: left + column, y, text: value, room: 64, anchor: 'end', bold: true, size: 13 }),
    ].join('');
  };
  const rows = domains.length === 0 ? [{ domain: null, entries: 0 }] : domains;
  rows.forEach((domain, index) => body.push(row(PAD, 86 + index * 24, domainName(domain.domain), count(domain.entries), domainClass(domain.domain))));
  const totals: [string, string][] = [
    ['Entries', count(data.entries)],
    [`Finished in ${data.year}`, count(data.finishedThisYear)],
    ['Rated', count(data.rated)],
    ['Average rating', data.ratingAverage === null ? '–' : `${decimal(data.ratingAverage)}/10`],
  ];
  totals.forEach(([name, value], index) => body.push(row(right, 86 + index * 24, name, value)));
  const height = 86 + Math.max(rows.length, totals.length) * 24 - 4;
  const byDomain = domains.map((domain) => `${domainName(domain.domain)} ${count(domain.entries)}`).join(', ');
  const average = data.ratingAverage === null ? 'no rating yet' : `an average rating of ${decimal(data.ratingAverage)} out of 10`;
  const desc =
    `${count(data.entries)} ${plural(data.entries, 'entry', 'entries')}${byDomain ? ` (${byDomain})` : ''}; ` +
    `${count(data.finishedThisYear)} finished in ${data.year}; ${count(data.rated)} rated, ${average}.`;
  return frame({ kind: 'stats', theme, height, title, desc, body });
}
