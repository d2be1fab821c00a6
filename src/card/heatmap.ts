import type { HeatmapCardData } from '../readings/cards.js';
import { CARD_WIDTH, count, frame, label, PAD, xmlText, type Theme } from './svg.js';
import { plural, whose } from './words.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** One square a day: a column a week (Monday at the top), as contribution graphs are drawn. */
const STEP = 7.9;
const SQUARE = 6.4;
const LEFT = PAD + 26;
const TOP = 80;

const round = (value: number) => Math.round(value * 10) / 10;

/** The level (0 to 4) of a day's count: none, then quarters of the busiest day. */
const levelOf = (events: number, most: number) => (events === 0 ? 0 : Math.min(4, Math.ceil((events / most) * 4)));

/** The heatmap card: dated activity of the last 52 weeks and this one, a square a day. */
export function heatmapCard(data: HeatmapCardData, theme: Theme): string {
  const title = whose(data.name, 'year of activity');
  const inner = CARD_WIDTH - 2 * PAD;
  const summary = `${count(data.events)} ${plural(data.events, 'event')} on ${count(data.activeDays)} ${plural(data.activeDays, 'day')}`;
  const body = [
    label({ x: PAD, y: 32, text: title, room: inner, size: 18, bold: true, tone: 't' }),
    label({ x: PAD, y: 50, text: summary, room: inner, size: 12, tone: 'm' }),
  ];
  const most = Math.max(1, ...data.days.map((day) => day.events));
  // Month names above the week of each month's first day; weekday names beside Monday, Wednesday and Friday.
  const months: { x: number; name: string }[] = [];
  data.days.forEach(({ day, events }, index) => {
    const x = round(LEFT + Math.floor(index / 7) * STEP);
    const y = round(TOP + (index % 7) * STEP);
    if (day.endsWith('-01') || index === 0) months.push({ x, name: MONTHS[Number(day.slice(5, 7)) - 1]! });
    const said = `${day}: ${count(events)} ${plural(events, 'event')}`;
    body.push(
      `<rect x="${x}" y="${y}" width="${SQUARE}" height="${SQUARE}" rx="1.5" class="l${levelOf(events, most)}"><title>${xmlText(said)}</title></rect>`,
    );
  });
  months.forEach(({ x, name }, index) => {
    const next = months[index + 1]?.x ?? CARD_WIDTH - PAD;
    body.push(label({ x, y: TOP - 5, text: name, room: next - x - 2, size: 10, tone: 'm' }));
  });
  ['Mon', 'Wed', 'Fri'].forEach((name, index) =>
    body.push(label({ x: PAD, y: round(TOP + index * 2 * STEP + SQUARE), text: name, room: LEFT - PAD - 3, size: 9, tone: 'm' })),
  );
  // The legend: less to more.
  const legendY = round(TOP + 7 * STEP + 14);
  const legendRight = CARD_WIDTH - PAD;
  const squares = [0, 1, 2, 3, 4].map((level, index) => {
    const x = round(legendRight - 34 - (5 - index) * STEP);
    return `<rect x="${x}" y="${legendY - SQUARE}" width="${SQUARE}" height="${SQUARE}" rx="1.5" class="l${level}"/>`;
  });
  body.push(
    label({ x: round(legendRight - 34 - 5 * STEP - 4), y: legendY, text: 'Less', room: 40, size: 10, anchor: 'end', tone: 'm' }),
    ...squares,
    label({ x: legendRight - 30, y: legendY, text: 'More', room: 30, size: 10, tone: 'm' }),
  );
  const first = data.days[0]?.day ?? '';
  const last = data.days.at(-1)?.day ?? '';
  const desc = `${summary} from ${first} to ${last}; the busiest day had ${count(most)} ${plural(most, 'event')}.`;
  return frame({ kind: 'heatmap', theme, height: legendY + 14, title, desc, body });
}
