import type { NowCardData } from '../readings/cards.js';
import { CARD_WIDTH, count, frame, label, PAD, type Theme } from './svg.js';
import { domainClass, domainName } from './words.js';

const ROW = 28;
const PROGRESS_ROOM = 110;

/** The now card: what is in progress (up to five, lk next's order), each with its progress. */
export function nowCard(data: NowCardData, theme: Theme): string {
  const title = data.name?.trim() ? `${data.name.trim()}: in progress` : 'In progress';
  const inner = CARD_WIDTH - 2 * PAD;
  const body = [label({ x: PAD, y: 36, text: title, room: inner - 90, size: 18, bold: true, tone: 't' })];
  body.push(label({ x: CARD_WIDTH - PAD, y: 36, text: `${count(data.total)} in all`, room: 80, anchor: 'end', tone: 'm' }));
  data.items.forEach((item, index) => {
    const y = 70 + index * ROW;
    body.push(`<circle cx="${PAD + 4}" cy="${y - 4.5}" r="4.5" class="${domainClass(item.domain)}"/>`);
    const progress = label({ x: CARD_WIDTH - PAD, y, text: item.progress, room: PROGRESS_ROOM, anchor: 'end', tone: 'm' });
    const room = inner - 14 - (progress === '' ? 0 : PROGRESS_ROOM + 12);
    body.push(label({ x: PAD + 14, y, text: item.title ?? 'Untitled', room }), progress);
  });
  if (data.items.length === 0) body.push(label({ x: PAD, y: 70, text: 'Nothing in progress', room: inner, tone: 'm' }));
  const height = 70 + Math.max(data.items.length, 1) * ROW - 6;
  const listed = data.items.map((item) => `${item.title ?? 'Untitled'} (${domainName(item.domain)}${item.progress ? `, ${item.progress}` : ''})`);
  const desc = data.items.length === 0 ? 'Nothing in progress.' : `${count(data.total)} in progress; the latest: ${listed.join('; ')}.`;
  return frame({ kind: 'now', theme, height, title, desc, body });
}
