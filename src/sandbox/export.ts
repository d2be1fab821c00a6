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

/** `"name":[…]`, with a comma before it (`after`) or after it (neither `last` nor `after`). */
function* jsonArray<T>(name: string, items: readonly T[], render: (item: T) => unknown, last = false, after = false): Generator<string> {
  yield `${after ? ',' : ''}${JSON.stringify(name)}:[`;
  for (let start = 0; start < items.length; start += BATCH) {
    const part = items.slice(start, start + BATCH).map((item) => JSON.stringify(render(item)));
    yield (start === 0 ? '' : ',') + part.join(',');
  }
  yield last || after ? ']' : '],';
}

/**
 * How the export is dressed: `item` for each rendered item (the alt variant's UUIDs), and `entryId`, when the export
 * numbers entries its own way (the sandbox's exportEntryIdPrefix option), for the ids of entries and of events' entries.
 */
export interface ExportDress {
  item: (item: unknown) => unknown;
  entryId?: ((id: string) => string) | undefined;
}

/** The collections an export may leave out (the sandbox's exportLeavesOut option). */
export type ExportCollection = 'lists' | 'reviews' | 'achievements' | 'notifications' | 'profile';

/**
 * The export document: `{exportedAt, account, library, history, lists, reviews, achievements, notifications,
 * profile}`, less the collections in `leaveOut`. History holds every event, dated ones newest first then undated
 * ones; events carry `workId` instead of the whole work, which is in the matching library entry.
 */
export function* exportDocument(
  account: AccountData,
  lang: Lang,
  now: number,
  seed: number,
  dataDay: number,
  leaveOut: ReadonlySet<ExportCollection> = new Set(),
  dress: ExportDress = { item: (item) => item },
): Generator<string> {
  const { item: as, entryId } = dress;
  const ownIds = (rendered: unknown, field: 'id' | 'entryId') =>
    entryId && rendered && typeof rendered === 'object' && typeof (rendered as Record<string, unknown>)[field] === 'string'
      ? { ...(rendered as Record<string, unknown>), [field]: entryId((rendered as Record<string, string>)[field]!) }
      : rendered;
  yield `{"exportedAt":${JSON.stringify(iso(now))},"account":${JSON.stringify(as(renderAccount(account)))},`;
  yield* jsonArray('library', account.entries, (entry) => ownIds(as(renderEntry(entry, lang)), 'id'));
  const undated = account.entries.flatMap((entry) => entryEvents(entry).filter((event) => event.date === null));
  yield* jsonArray(
    'history',
    [...datedEvents(account, undefined), ...undated],
    (event) => ownIds(as(renderEvent(event, lang, false)), 'entryId'),
    true,
  );
  if (!leaveOut.has('lists')) yield* jsonArray('lists', account.lists, (list) => as(renderList(list, lang, true)), false, true);
  if (!leaveOut.has('reviews')) yield* jsonArray('reviews', account.reviews, (review) => as(renderReview(review, lang)), false, true);
  const unlocked = achievements(account, seed, dataDay);
  if (!leaveOut.has('achievements'))
    yield* jsonArray('achievements', unlocked, (achievement) => as(renderAchievement(achievement, account.username)), false, true);
  if (!leaveOut.has('notifications')) yield* jsonArray('notifications', account.notifications, (n) => as(renderNotification(n)), false, true);
  if (!leaveOut.has('profile'))
    yield `,"profile":${JSON.stringify(as(renderProfile(account, unlocked.filter((a) => a.unlockedAt !== null).length)))}`;
  yield '}';
}
