/**
 * GET /v1/export: the whole account in one JSON document, produced piece by piece so that a 100,000-entry library
 * is streamed (chunked) instead of being built as one string in memory.
 */
import type { AccountData } from './data.js';
import { entryEvents } from './history.js';
import { datedEvents } from './queries.js';
import { achievements } from './stats.js';
import { iso, type Lang } from './model.js';
import { renderAccount, renderAchievement, renderEntry, renderEvent, renderList, renderNotification, renderProfile, renderReview } from './render.js';

/** Items per chunk written to the socket. */
const BATCH = 500;

function* jsonArray<T>(name: string, items: readonly T[], render: (item: T) => unknown, last = false): Generator<string> {
  yield `${JSON.stringify(name)}:[`;
  for (let start = 0; start < items.length; start += BATCH) {
    const part = items.slice(start, start + BATCH).map((item) => JSON.stringify(render(item)));
    yield (start === 0 ? '' : ',') + part.join(',');
  }
  yield last ? ']' : '],';
}

/**
 * The export document: `{exportedAt, account, library, history, lists, reviews, achievements, notifications,
 * profile}`. History holds every event, dated ones newest first then undated ones; events carry `workId`
 * instead of the whole work, which is in the matching library entry.
 */
export function* exportDocument(account: AccountData, lang: Lang, now: number, seed: number, dataDay: number): Generator<string> {
  yield `{"exportedAt":${JSON.stringify(iso(now))},"account":${JSON.stringify(renderAccount(account))},`;
  yield* jsonArray('library', account.entries, (entry) => renderEntry(entry, lang));
  const undated = account.entries.flatMap((entry) => entryEvents(entry).filter((event) => event.date === null));
  yield* jsonArray('history', [...datedEvents(account, undefined), ...undated], (event) => renderEvent(event, lang, false));
  yield* jsonArray('lists', account.lists, (list) => renderList(list, lang, true));
  yield* jsonArray('reviews', account.reviews, (review) => renderReview(review, lang));
  const unlocked = achievements(account, seed, dataDay);
  yield* jsonArray('achievements', unlocked, (achievement) => renderAchievement(achievement, account.username));
  yield* jsonArray('notifications', account.notifications, renderNotification);
  yield `"profile":${JSON.stringify(renderProfile(account, unlocked.filter((a) => a.unlockedAt !== null).length))}}`;
}
