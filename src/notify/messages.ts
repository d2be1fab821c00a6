import type { Database } from '../mirror/open.js';
import { EVERYTHING } from '../readings/pages.js';
import { READINGS } from '../readings/table.js';
import { airsAtOf, episodeOf, episodePageOf, episodeTitleOf, seasonOf, showTitleOf } from '../items/calendar.js';
import { ownerEntryIdOf } from '../items/entry.js';
import { notificationTextOf, notificationTitleOf } from '../items/notification.js';
import { ownPageOf } from '../items/page.js';
import { itemIdOf, text } from '../items/values.js';

/**
 * What lk notify tells, made from the mirror's side of two readings (src/readings/table.ts): `airing`, an episode of
 * a followed show airing in the next 24 hours (the calendar), and `notification`, each of the service's notifications.
 * Each message has a key that stays the same from run to run, by which the ledger knows it was sent.
 */
export interface Message {
  kind: 'airing' | 'notification';
  key: string;
  title: string;
  body: string;
}

/** How far ahead an episode is told of. */
export const AIRING_AHEAD_MS = 24 * 3600 * 1000;

/** The messages due now: the episodes airing in the next 24 hours (soonest first), then the notifications (oldest first). */
export function messagesDue(db: Database, now: number): Message[] {
  const calendar = READINGS.calendar.mirror(db, {}, EVERYTHING, now).items;
  const notifications = READINGS.notifications.mirror(db, {}, EVERYTHING).items;
  const airing = [...calendar]
    .map((item) => ({ item, at: airsAtOf(item) }))
    .filter((found): found is { item: unknown; at: number } => found.at !== undefined && found.at >= now && found.at < now + AIRING_AHEAD_MS)
    .sort((a, b) => a.at - b.at)
    .map(({ item, at }) => airingMessage(item, at));
  const told = [...notifications]
    .reverse()
    .map(notificationMessage)
    .filter((message): message is Message => message !== undefined);
  return [...airing, ...told];
}

function airingMessage(item: unknown, at: number): Message {
  const show = showTitleOf(item) ?? 'A show you follow';
  const season = seasonOf(item);
  const episode = episodeOf(item);
  const number =
    season !== undefined && episode !== undefined ? ` S${pad(season)}E${pad(episode)}` : episode !== undefined ? ` episode ${episode}` : '';
  const named = text(episodeTitleOf(item));
  const id = text(itemIdOf(item)) ?? `${ownerEntryIdOf(item) ?? show}:${season ?? ''}:${episode ?? ''}:${at}`;
  const body = [`${named === null ? 'Airs' : `“${named}” airs`} ${whenOf(at)}.`, text(episodePageOf(item))].filter(Boolean).join('\n');
  return { kind: 'airing', key: `airing:${id}`, title: `${show}${number}`, body };
}

function notificationMessage(item: unknown): Message | undefined {
  const id = text(itemIdOf(item));
  if (id === null) return undefined; // nothing to know it by next time: it would be told at every run
  const title = text(notificationTitleOf(item)) ?? 'Notification';
  const body = [text(notificationTextOf(item)), text(ownPageOf(item))].filter(Boolean).join('\n');
  return { kind: 'notification', key: `notification:${id}`, title, body: body === '' ? title : body };
}

const pad = (value: number) => String(value).padStart(2, '0');

/** The air time in the run's time zone (TZ), as a phone's notification shows it: `Sat 28 Nov, 21:00 GMT`. */
function whenOf(at: number): string {
  return new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(at);
}
