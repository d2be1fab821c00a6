import { createHash } from 'node:crypto';
import { text, titleKey } from '../items/values.js';
import {
  entryAddedAtOf,
  entryDomainOf,
  entryFinishedAtOf,
  entryNotesOf,
  entryStartedAtOf,
  entryTitleOf,
  entryUpdatedAtOf,
  entryWorkIdOf,
  ownerEntryIdOf,
} from '../items/entry.js';
import { airTimeOf, episodeOf, episodesBehindOf, episodeTitleOf, seasonOf } from '../items/calendar.js';
import { eventCycleOf, eventDateOf, eventKindOf, eventMinutesOf, eventPagesOf } from '../items/event.js';
import {
  listCreatedAtOf,
  listDescriptionOf,
  listItemAddedAtOf,
  listItemCountOf,
  listItemNoteOf,
  listItemTypeSaidOf,
  listNameOf,
  listOwnerNameOf,
  listUpdatedAtOf,
  listVisibilityOf,
} from '../items/list.js';
import { notificationDateOf, notificationIsRead, notificationKindOf, notificationTextOf, notificationTitleOf } from '../items/notification.js';
import { reviewBodyOf, reviewDateOf, reviewRatingOf, reviewTitleOf } from '../items/review.js';
import { achievementDescriptionOf, achievementDomainOf, achievementNameOf, achievementUnlockedAtOf } from '../items/achievement.js';
import { profileDisplayNameOf, profileNameOf } from '../items/account.js';
import { workDomain, workIdOf, workOriginalTitleOf, workTitleOf, workTypeOf, workYearOf } from '../items/work.js';

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
    original_title: text(workOriginalTitleOf(work)),
    type: workTypeOf(work),
    domain: workDomain(work),
    year: num(workYearOf(work)),
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
    notes: text(entryNotesOf(entry)),
    added_at: text(entryAddedAtOf(entry)),
    started_at: text(entryStartedAtOf(entry)),
    finished_at: text(entryFinishedAtOf(entry)),
    updated_at: text(entryUpdatedAtOf(entry)),
    title_key: titleKey(title),
    position,
  };
}

export function eventRow(event: Item, position: number, id: string): Row {
  return {
    id,
    entry_id: ownerEntryIdOf(event),
    work_id: workIdOf(event),
    kind: text(eventKindOf(event)),
    date: text(eventDateOf(event)),
    cycle: num(eventCycleOf(event)),
    minutes: num(eventMinutesOf(event)),
    pages: num(eventPagesOf(event)),
    position,
  };
}

export function listRow(list: Item, position: number): Row {
  return {
    id: text(list.id),
    name: text(listNameOf(list)),
    description: text(listDescriptionOf(list)),
    item_count: num(listItemCountOf(list)),
    visibility: text(listVisibilityOf(list)),
    owner: text(listOwnerNameOf(list)),
    created_at: text(listCreatedAtOf(list)),
    updated_at: text(listUpdatedAtOf(list)),
    position,
  };
}

export function listItemRow(listId: string, index: number, item: Item): Row {
  return {
    id: `${listId}:${index}`,
    list_id: listId,
    item_index: index,
    type: text(listItemTypeSaidOf(item)),
    work_id: workIdOf(item),
    season: num(seasonOf(item)),
    episode: num(episodeOf(item)),
    title: text(episodeTitleOf(item)),
    note: text(listItemNoteOf(item)),
    added_at: text(listItemAddedAtOf(item)),
  };
}

export function reviewRow(review: Item, position: number): Row {
  return {
    id: text(review.id),
    entry_id: ownerEntryIdOf(review),
    work_id: workIdOf(review),
    rating: num(reviewRatingOf(review)),
    title: reviewTitleOf(review),
    body: reviewBodyOf(review),
    created_at: text(reviewDateOf(review)),
    position,
  };
}

export function achievementRow(achievement: Item, position: number, id: string): Row {
  return {
    id,
    name: text(achievementNameOf(achievement)),
    description: text(achievementDescriptionOf(achievement)),
    domain: text(achievementDomainOf(achievement)),
    unlocked_at: text(achievementUnlockedAtOf(achievement)),
    position,
  };
}

export function notificationRow(notification: Item, position: number, id: string): Row {
  return {
    id,
    kind: text(notificationKindOf(notification)),
    title: text(notificationTitleOf(notification)),
    message: text(notificationTextOf(notification)),
    read: bool(notificationIsRead(notification)),
    created_at: text(notificationDateOf(notification)),
    position,
  };
}

export function calendarRow(item: Item, position: number, id: string): Row {
  return {
    id,
    entry_id: ownerEntryIdOf(item),
    work_id: workIdOf(item),
    season: num(seasonOf(item)),
    episode: num(episodeOf(item)),
    title: text(episodeTitleOf(item)),
    airs_at: text(airTimeOf(item)),
    episodes_behind: num(episodesBehindOf(item)),
    position,
  };
}

export function profileRow(profile: Item): Row {
  return {
    id: text(profile.id) ?? 'profile',
    username: text(profileNameOf(profile)),
    display_name: text(profileDisplayNameOf(profile)),
  };
}
