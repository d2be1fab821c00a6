import type { YearCardData } from '../readings/cards.js';
import { CARD_WIDTH, count, frame, label, PAD, xmlText, type Theme } from './svg.js';
import { plural, whose } from './words.js';

const MONTH_LETTERS = ['J', 'F', 'M', 'A', 'M', 'J', 'J', 'A', 'S', 'O', 'N', 'D'];
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "15 June". */
const dayName = (day: string) => `${Number(day.slice(8, 10))} ${MONTH_NAMES[Number(day.slice(5, 7)) - 1]}`;

/** The year card: this year's figures from the year in review (lk report), and its events month by month. */
export function yearCard(data: YearCardData, theme: Theme): string {
  const { total } = data.figures;
  const title = whose(data.name, data.through ? `${data.year} so far` : `${data.year}`);
  const inner = CARD_WIDTH - 2 * PAD;
  const span = data.through ? `1 January to ${dayName(data.through)} ${data.year}` : `1 January to 31 December ${data.year}`;
  const body = [
    label({ x: PAD, y: 36, text: title, room: inner, size: 18, bold: true, tone: 't' }),
    label({ x: PAD, y: 54, text: span, room: inner, size: 12, tone: 'm' }),
  ];
  const minutes = total.time.minutes;
  const streak = total.longestStreak?.days ?? 0;
  const figures: [string, string][] = [
    [count(total.events), plural(total.events, 'event')],
    [count(total.finished), 'finished'],
    [minutes === null || minutes === undefined ? '–' : count(Math.round(minutes / 60)), 'hours'],
    [count(streak), `${plural(streak, 'day')} in a row`],
  ];
  const box = inner / figures.length;
  figures.forEach(([value, name], index) => {
    const x = PAD + index * box;
    body.push(
      label({ x, y: 88, text: value, room: box - 8, size: 22, bold: true }),
      label({ x, y: 106, text: name, room: box - 8, size: 11, tone: 'm' }),
    );
  });
  // Events by month: a bar each, scaled to the busiest.
  const months = total.eventsByMonth;
  const most = Math.max(1, ...months);
  const slot = inner / Math.max(months.length, 1);
  const base = 180;
  months.forEach((events, index) => {
    const height = Math.round((events / most) * 52 * 10) / 10;
    const x = Math.round((PAD + index * slot + slot * 0.15) * 10) / 10;
    const month = Number(data.figures.months[index]?.slice(5, 7) ?? index + 1) - 1;
    const said = `${MONTH_NAMES[month]}: ${count(events)} ${plural(events, 'event')}`;
    body.push(
      `<rect x="${x}" y="${base - Math.max(height, 1)}" width="${Math.round(slot * 0.7 * 10) / 10}" height="${Math.max(height, 1)}" rx="1.5" class="${events ? 'l3' : 'l0'}"><title>${xmlText(said)}</title></rect>`,
      label({
        x: Math.round((PAD + index * slot + slot / 2) * 10) / 10,
        y: base + 14,
        text: MONTH_LETTERS[month]!,
        room: slot,
        size: 10,
        anchor: 'middle',
        tone: 'm',
      }),
    );
  });
  const best = total.topRated[0];
  let height = base + 26;
  if (best) {
    const rating = `${best.rating}/10`;
    body.push(
      label({ x: PAD, y: base + 42, text: 'Top rated', room: 80, size: 12, tone: 'm' }),
      label({ x: PAD + 80, y: base + 42, text: best.title ?? 'Untitled', room: inner - 80 - 60 }),
      label({ x: CARD_WIDTH - PAD, y: base + 42, text: rating, room: 56, anchor: 'end', bold: true }),
    );
    height = base + 56;
  }
  const desc =
    `${span}: ${count(total.events)} ${plural(total.events, 'event')}, ${count(total.finished)} finished` +
    `${minutes ? `, ${count(Math.round(minutes / 60))} hours watched or played` : ''}, the longest streak ${count(streak)} ${plural(streak, 'day')}` +
    `${best ? `; top rated: ${best.title ?? 'Untitled'} (${best.rating}/10)` : ''}.`;
  return frame({ kind: 'year', theme, height, title, desc, body });
}
