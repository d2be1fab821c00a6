import { createHash } from 'node:crypto';
import { firstOf, getPath } from '../util/object-path.js';
import { isObject } from '../util/json-value.js';
import { DOMAINS } from '../vocabulary.js';

/**
 * Items as the server sent them → the mirror's columns. docs/api.md fixes only a few field names (id, work, status,
 * phase, rating, notes, dates, progress, source, sourceId, url, cycle, date, episodesBehind); every other column
 * is read from the first spelling present and is NULL when there is none. The item itself goes whole into `json`.
 */

export type Row = Record<string, string | number | null>;
type Item = Record<string, unknown>;

// The mirror's row makers and their readers test objects with util's isObject (parsed JSON, one rule for lk).
export { isObject };

/** Text for a TEXT column; ids may be numbers or strings. */
export function text(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  return null;
}

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function bool(value: unknown): number | null {
  return typeof value === 'boolean' ? (value ? 1 : 0) : null;
}

const DOMAIN_OF_TYPE: Record<string, string> = {
  film: 'MEDIA',
  movie: 'MEDIA',
  series: 'MEDIA',
  show: 'MEDIA',
  tv: 'MEDIA',
  anime: 'MEDIA',
  game: 'GAMES',
  book: 'BOOKS',
  album: 'MUSIC',
};
const DOMAIN_NAMES = new Set<string>(DOMAINS);

/** The domain of a work: its own field when it has one, else read from its type. */
export function workDomain(work: unknown): string | null {
  const said = text(firstOf(work, ['domain']));
  if (said && DOMAIN_NAMES.has(said.toUpperCase())) return said.toUpperCase();
  const type = text(firstOf(work, ['type', 'kind', 'mediaType']));
  return type ? (DOMAIN_OF_TYPE[type.toLowerCase()] ?? null) : null;
}

/** Case- and accent-insensitive sort key for titles (A to Z). */
export function titleKey(title: string | null): string | null {
  if (title === null) return null;
  if (!/[^\x00-\x7f]/.test(title)) return title.toLowerCase();
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/** An id for items that carry none (docs/api.md does not promise one everywhere): a digest of the item and its place. */
export function syntheticId(prefix: string, item: unknown, place: string): string {
  return `${prefix}:${createHash('sha1').update(JSON.stringify(item)).update(place).digest('hex').slice(0, 16)}`;
}

export function workOf(item: unknown): Item | undefined {
  const work = firstOf(item, ['work', 'show']);
  return isObject(work) && text(work.id) !== null ? work : undefined;
}

export function workRow(work: Item): Row {
  return {
    id: text(work.id),
    source: text(work.source),
    source_id: text(work.sourceId),
    title: text(firstOf(work, ['title', 'name'])),
    original_title: text(firstOf(work, ['originalTitle', 'original_title'])),
    type: text(firstOf(work, ['type', 'kind', 'mediaType'])),
    domain: workDomain(work),
    year: num(firstOf(work, ['year', 'releaseYear'])),
    url: text(work.url),
  };
}

/** An entry's title, as the entries.title column has it (lk next and lk status read entries the same way). */
export const entryTitleOf = (entry: unknown): string | null => text(firstOf(entry, ['work.title', 'work.name', 'title']));

/** An entry's domain, as the entries.domain column has it: its work's, else its own. */
export function entryDomainOf(entry: unknown): string | null {
  const work = workOf(entry);
  return (work ? workDomain(work) : null) ?? text(getPath(entry, 'domain'));
}

/** An entry's work id, as the entries.work_id column has it. */
export const entryWorkIdOf = (entry: unknown): string | null => text(firstOf(entry, ['work.id', 'workId']));

export function entryRow(entry: Item, position: number): Row {
  const title = entryTitleOf(entry);
  return {
    id: text(entry.id),
    work_id: entryWorkIdOf(entry),
    title,
    domain: entryDomainOf(entry),
    status: text(entry.status),
    phase: text(entry.phase),
    rating: num(entry.rating),
    notes: text(entry.notes),
    added_at: text(firstOf(entry, ['dates.added', 'addedAt', 'createdAt'])),
    started_at: text(firstOf(entry, ['dates.started', 'startedAt'])),
    finished_at: text(firstOf(entry, ['dates.finished', 'finishedAt'])),
    updated_at: text(firstOf(entry, ['dates.updated', 'updatedAt'])),
    title_key: titleKey(title),
    position,
  };
}

export function eventRow(event: Item, position: number, id: string): Row {
  return {
    id,
    entry_id: text(firstOf(event, ['entryId', 'entry.id'])),
    work_id: text(firstOf(event, ['work.id', 'workId'])),
    kind: text(firstOf(event, ['kind', 'type'])),
    date: text(event.date),
    cycle: num(event.cycle),
    minutes: num(event.minutes),
    pages: num(event.pages),
    position,
  };
}

export function listRow(list: Item, position: number): Row {
  const items = list.items;
  return {
    id: text(list.id),
    name: text(firstOf(list, ['name', 'title'])),
    description: text(list.description),
    item_count: num(firstOf(list, ['itemCount', 'itemsCount', 'count'])) ?? (Array.isArray(items) ? items.length : null),
    visibility: text(list.visibility),
    owner: text(firstOf(list, ['owner.username', 'owner'])),
    created_at: text(list.createdAt),
    updated_at: text(list.updatedAt),
    position,
  };
}

export function listItemRow(listId: string, index: number, item: Item): Row {
  return {
    id: `${listId}:${index}`,
    list_id: listId,
    item_index: index,
    type: text(firstOf(item, ['type', 'kind', 'itemType'])),
    work_id: text(firstOf(item, ['work.id', 'workId', 'show.id'])),
    season: num(firstOf(item, ['season.number', 'season'])),
    episode: num(firstOf(item, ['episode.number', 'episode'])),
    title: text(firstOf(item, ['title', 'episode.title'])),
    note: text(firstOf(item, ['note', 'notes'])),
    added_at: text(firstOf(item, ['addedAt', 'dates.added'])),
  };
}

export function reviewRow(review: Item, position: number): Row {
  return {
    id: text(review.id),
    entry_id: text(firstOf(review, ['entryId', 'entry.id'])),
    work_id: text(firstOf(review, ['work.id', 'workId', 'entry.work.id'])),
    rating: num(firstOf(review, ['rating', 'entry.rating'])),
    title: text(firstOf(review, ['title', 'headline', 'summary'])),
    body: text(firstOf(review, ['body', 'text', 'content'])),
    created_at: text(firstOf(review, ['createdAt', 'date'])),
    position,
  };
}

export function achievementRow(achievement: Item, position: number, id: string): Row {
  return {
    id,
    name: text(firstOf(achievement, ['name', 'title'])),
    description: text(achievement.description),
    domain: text(achievement.domain),
    unlocked_at: text(firstOf(achievement, ['unlockedAt', 'achievedAt'])),
    position,
  };
}

export function notificationRow(notification: Item, position: number, id: string): Row {
  return {
    id,
    kind: text(firstOf(notification, ['kind', 'type'])),
    title: text(notification.title),
    message: text(firstOf(notification, ['message', 'text', 'body'])),
    read: bool(notification.read),
    created_at: text(firstOf(notification, ['createdAt', 'date'])),
    position,
  };
}

export function calendarRow(item: Item, position: number, id: string): Row {
  return {
    id,
    entry_id: text(firstOf(item, ['entryId', 'entry.id'])),
    work_id: text(firstOf(item, ['show.id', 'work.id', 'workId'])),
    season: num(firstOf(item, ['season', 'episode.season'])),
    episode: num(firstOf(item, ['episode.number', 'episode'])),
    title: text(firstOf(item, ['title', 'episode.title'])),
    airs_at: text(firstOf(item, ['airsAt', 'airDate', 'airdate', 'date'])),
    episodes_behind: num(item.episodesBehind),
    position,
  };
}

export function profileRow(profile: Item): Row {
  return {
    id: text(profile.id) ?? 'profile',
    username: text(firstOf(profile, ['username', 'name'])),
    display_name: text(firstOf(profile, ['displayName', 'display_name'])),
  };
}
