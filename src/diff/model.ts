import { achievementNameOf } from '../items/achievement.js';
import { entryTitleOf } from '../items/entry.js';
import { listNameOf } from '../items/list.js';
import { notificationHeadlineOf } from '../items/notification.js';
import { reviewTitleOf, reviewWorkTitleOf } from '../items/review.js';

/**
 * What changed between two states of an account, as data: entries matched by id (added, removed, changed field by
 * field), history events added, removed and changed in place (with counts per domain), lists, reviews,
 * notifications and achievements added, removed and changed, and the profile's fields. docs/api.md fixes `id` and a few
 * entry fields only; every other field is compared as it comes, whatever its name.
 */

export type Item = Record<string, unknown>;

/** An item's title (src/items reads it): what the comparison records and the screen shows. A review without one goes by its work's. */
export const TITLE_OF = {
  library: entryTitleOf,
  lists: listNameOf,
  reviews: (review: unknown) => reviewTitleOf(review) ?? reviewWorkTitleOf(review),
  notifications: notificationHeadlineOf,
  achievements: achievementNameOf,
} as const satisfies Record<string, (item: unknown) => unknown>;

export interface FieldChange {
  /** Dot path of the field, e.g. rating, dates.finished, work.title. */
  field: string;
  before: unknown;
  after: unknown;
}

export interface ChangedItem {
  id: string;
  /** The entry's work title, the list's name, the review's title: null when the item carries none. */
  title: string | null;
  domain: string | null;
  changes: FieldChange[];
}

export interface CollectionDiff {
  added: Item[];
  removed: Item[];
  changed: ChangedItem[];
}

export interface DomainCounts {
  added: number;
  removed: number;
  changed: number;
}

export interface HistoryDiff {
  added: Item[];
  removed: Item[];
  /** Events of the same id on both sides whose fields differ (a date or minutes corrected in place). */
  changed: ChangedItem[];
  /** Per domain (MEDIA, GAMES, BOOKS, MUSIC; `other` where no entry or work tells). */
  byDomain: Record<string, DomainCounts>;
}

/** `lk diff --json` is {added, removed, changed, history, lists, reviews, profile, notifications, achievements}. */
export interface ExportDiff {
  added: Item[];
  removed: Item[];
  changed: ChangedItem[];
  history: HistoryDiff;
  lists: CollectionDiff;
  reviews: CollectionDiff;
  /** The profile's fields that differ (none when it is the same, or when one side has no profile). */
  profile: { changes: FieldChange[] };
  notifications: CollectionDiff;
  achievements: CollectionDiff;
}

/** The collections of an export besides the library (the --json keys), in the order they are reported. */
export const OTHER_COLLECTIONS = ['lists', 'reviews', 'notifications', 'achievements'] as const;

export function isEmptyDiff(diff: ExportDiff): boolean {
  return diffSummary(diff) === NO_CHANGES;
}

export const NO_CHANGES = 'no changes';

type Counts = Record<string, number>;

/** How many items each part of a diff holds, by part and verb (entries: {added, removed, changed}, …, profile: {changed}). */
export type DiffCounts = Record<keyof typeof NOUNS, Counts>;

const NOUNS = {
  entries: ['entry', 'entries'],
  history: ['history event', 'history events'],
  lists: ['list', 'lists'],
  reviews: ['review', 'reviews'],
  notifications: ['notification', 'notifications'],
  achievements: ['achievement', 'achievements'],
  profile: ['profile field', 'profile fields'],
} as const;

/**
 * "3 entries changed, 12 history events added, 2 profile fields changed": lk export --git's commit message, the
 * last line of the terminal view. Every collection that changed is named.
 */
export function diffSummary(diff: ExportDiff): string {
  const sizes = (part: CollectionDiff) => ({ added: part.added.length, removed: part.removed.length, changed: part.changed.length });
  return countsSummary({
    entries: sizes(diff),
    history: sizes(diff.history),
    lists: sizes(diff.lists),
    reviews: sizes(diff.reviews),
    notifications: sizes(diff.notifications),
    achievements: sizes(diff.achievements),
    profile: { changed: diff.profile.changes.length },
  });
}

export function countsSummary(counts: Partial<DiffCounts>): string {
  const parts: string[] = [];
  for (const [part, [one, many]] of Object.entries(NOUNS) as [keyof DiffCounts, readonly [string, string]][]) {
    for (const [verb, n] of Object.entries(counts[part] ?? {})) {
      if (n > 0) parts.push(`${n.toLocaleString('en-US')} ${n === 1 ? one : many} ${verb}`);
    }
  }
  return parts.length === 0 ? NO_CHANGES : parts.join(', ');
}
