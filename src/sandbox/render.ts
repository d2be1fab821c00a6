/** Records → JSON bodies. The one place that decides the field names of every resource (see README.md). */
import { hasLang, renderWork } from './catalogue.js';
import type { AccountData } from './data.js';
import {
  APP_URL,
  iso,
  type AchievementRecord,
  type EntryRecord,
  type EventRecord,
  type Lang,
  type ListItemRecord,
  type ListRecord,
  type NotificationRecord,
  type ReviewRecord,
  type WorkRecord,
} from './model.js';
import { NOUNS, ADJECTIVES } from './vocab.js';
import { hash32 } from './rng.js';

export type Json = Record<string, unknown>;

export function renderEntry(entry: EntryRecord, lang: Lang): Json {
  return {
    id: entry.id,
    work: renderWork(entry.work, lang),
    status: entry.status,
    phase: entry.phase,
    rating: entry.rating,
    notes: entry.notes,
    dates: { added: iso(entry.added), started: iso(entry.started), finished: iso(entry.finished), updated: iso(entry.updated) },
    progress: entry.progress,
    url: `${APP_URL}/library/${entry.id}`,
  };
}

/** A history event; in the export the work is left out (`workId` instead), as the entry already carries it. */
export function renderEvent(event: EventRecord, lang: Lang, withWork = true): Json {
  const out: Json = { id: event.id, entryId: event.entry.id };
  if (withWork) out.work = renderWork(event.entry.work, lang);
  else out.workId = event.entry.work.id;
  out.kind = event.kind;
  out.date = iso(event.date);
  out.cycle = event.cycle;
  if (event.season !== undefined) out.season = event.season;
  if (event.episode !== undefined) out.episode = event.episode;
  if (event.minutes !== undefined) out.minutes = event.minutes;
  if (event.pages !== undefined) out.pages = event.pages;
  return out;
}

/** Episode titles follow the show: in `lang` when the show has a title in it, English otherwise. */
export function episodeTitle(work: WorkRecord, season: number, episode: number, lang: Lang): string {
  const h = hash32(work.id, season, episode);
  const noun = NOUNS[h % NOUNS.length]!;
  const adjective = ADJECTIVES[(h >>> 8) % ADJECTIVES.length]!;
  const column = hasLang(work, lang) ? ({ en: 0, fr: 1, it: 2 } as const)[lang] : 0;
  if (column === 0) return `The ${adjective[0]} ${noun[0]}`;
  return `${noun[column]} ${adjective[column]}`;
}

function renderListItem(item: ListItemRecord, lang: Lang): Json {
  const out: Json = { type: item.type, work: renderWork(item.work, lang) };
  if (item.season !== undefined) out.season = item.season;
  if (item.episode !== undefined) out.episode = item.episode;
  if (item.type === 'season') out.title = `Season ${item.season}`;
  if (item.type === 'episode') out.title = episodeTitle(item.work, item.season!, item.episode!, lang);
  out.addedAt = iso(item.addedAt);
  if (item.note !== undefined) out.note = item.note;
  return out;
}

export function renderList(list: ListRecord, lang: Lang, withItems: boolean): Json {
  const out: Json = {
    id: list.id,
    name: list.name,
    description: list.description,
    itemCount: list.items.length,
    ...(list.visibility === null ? {} : { visibility: list.visibility }),
    shared: list.shared,
    owner: list.owner,
    url: `${APP_URL}/lists/${list.id}`,
    createdAt: iso(list.createdAt),
    updatedAt: iso(list.updatedAt),
  };
  if (withItems) out.items = list.items.map((item) => renderListItem(item, lang));
  return { ...out, ...list.fields };
}

export function renderReview(review: ReviewRecord, lang: Lang): Json {
  return {
    id: review.id,
    entryId: review.entry.id,
    work: renderWork(review.entry.work, lang),
    rating: review.entry.rating,
    title: review.headline,
    body: review.body,
    spoiler: review.spoiler,
    likes: review.likes,
    createdAt: iso(review.createdAt),
    updatedAt: iso(review.updatedAt),
    url: `${APP_URL}/reviews/${review.id}`,
    ...review.fields,
  };
}

export function renderAchievement(achievement: AchievementRecord, username: string): Json {
  return {
    id: achievement.id,
    name: achievement.name,
    description: achievement.description,
    domain: achievement.domain,
    unlocked: achievement.unlockedAt !== null,
    unlockedAt: iso(achievement.unlockedAt),
    progress: { current: achievement.current, target: achievement.target },
    url: `${APP_URL}/u/${username}/achievements#${achievement.id}`,
  };
}

export function renderNotification(notification: NotificationRecord): Json {
  return {
    id: notification.id,
    kind: notification.kind,
    title: notification.title,
    message: notification.message,
    read: notification.read,
    createdAt: iso(notification.createdAt),
    url: notification.url,
  };
}

export function renderAccount(account: AccountData): Json {
  const { profile } = account;
  return {
    id: profile.id,
    username: profile.username,
    displayName: profile.displayName,
    language: profile.language,
    timezone: profile.timezone,
    domains: profile.domains,
  };
}

export function renderProfile(account: AccountData, achievementsUnlocked: number): Json {
  const { profile } = account;
  return {
    ...renderAccount(account),
    bio: profile.bio,
    location: profile.location,
    avatarUrl: `${APP_URL}/avatars/${profile.id}.png`,
    joinedAt: iso(profile.joinedAt),
    counts: {
      entries: account.entries.length,
      lists: account.lists.length,
      reviews: account.reviews.length,
      achievementsUnlocked,
    },
    url: `${APP_URL}/u/${profile.username}`,
  };
}
