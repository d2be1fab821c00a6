import { createHash } from 'node:crypto';
import { firstOf } from '../util/object-path.js';
import { text, titleKey } from '../items/values.js';
import { entryDomainOf, entryTitleOf, entryWorkIdOf, ownerEntryIdOf } from '../items/entry.js';
import { reviewBodyOf, reviewTitleOf } from '../items/review.js';
import { workDomain, workTitleOf, workTypeOf } from '../items/work.js';

/**
 * Items as the server sent them → the mirror's columns. docs/api.md fixes only a few field names (id, work, status,
 * phase, rating, notes, dates, progress, source, sourceId, url, cycle, date, episodesBehind); every other column
 * is read from the first spelling present (src/items, which every layer reads items through) and is NULL when there
 * is none. The item itself goes whole into `json`.
 */

export type Row = Record<string, string | number | null>;
type Item = Record<string, unknown>;

function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function bool(value: unknown): number | null {
  return typeof value === 'boolean' ? (value ? 1 : 0) : null;
}

/** An id for items that carry none (docs/api.md does not promise one everywhere): a digest of the item and its place. */
export function syntheticId(prefix: string, item: unknown, place: string): string {
  return `${prefix}:${createHash('sha1').update(JSON.stringify(item)).update(place).digest('hex').slice(0, 16)}`;
}

export function workRow(work: Item): Row {
  return {
    id: text(work.id),
    source: text(work.source),
    source_id: text(work.sourceId),
    title: workTitleOf(work),
    original_title: text(firstOf(work, ['originalTitle', 'original_title'])),
    type: workTypeOf(work),
    domain: workDomain(work),
    year: num(firstOf(work, ['year', 'releaseYear'])),
    url: text(work.url),
  };
}

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
    entry_id: ownerEntryIdOf(event),
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
    entry_id: ownerEntryIdOf(review),
    work_id: text(firstOf(review, ['work.id', 'workId', 'entry.work.id'])),
    rating: num(firstOf(review, ['rating', 'entry.rating'])),
    title: reviewTitleOf(review),
    body: reviewBodyOf(review),
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
    entry_id: ownerEntryIdOf(item),
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
