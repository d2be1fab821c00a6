/**
 * What changed between two states of an account, as data: entries matched by id (added, removed, changed field by
 * field), history events added and removed (with counts per domain), lists and reviews added, removed and changed.
 * SPEC.md fixes `id` and a few entry fields only; every other field is compared as it comes, whatever its name.
 */

export type Item = Record<string, unknown>;

/** Where an item's title is (the first path that holds one): what the comparison records and the screen shows. */
export const TITLE_PATHS = {
  library: ['work.title', 'work.name', 'title'],
  lists: ['name', 'title'],
  reviews: ['title', 'headline', 'work.title'],
} as const satisfies Record<string, readonly string[]>;

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
}

export interface HistoryDiff {
  added: Item[];
  removed: Item[];
  /** Per domain (MEDIA, GAMES, BOOKS, MUSIC; `other` where no entry or work tells). */
  byDomain: Record<string, DomainCounts>;
}

/** CLI.md: `lk diff --json` is {added, removed, changed, history, lists, reviews}. */
export interface ExportDiff {
  added: Item[];
  removed: Item[];
  changed: ChangedItem[];
  history: HistoryDiff;
  lists: CollectionDiff;
  reviews: CollectionDiff;
}

export function isEmptyDiff(diff: ExportDiff): boolean {
  return (
    diff.added.length + diff.removed.length + diff.changed.length + diff.history.added.length + diff.history.removed.length === 0 &&
    [diff.lists, diff.reviews].every((part) => part.added.length + part.removed.length + part.changed.length === 0)
  );
}

/** How many items each part of a diff holds. */
export interface DiffCounts {
  entries: { added: number; removed: number; changed: number };
  history: { added: number; removed: number };
  lists: { added: number; removed: number; changed: number };
  reviews: { added: number; removed: number; changed: number };
}

/** "3 entries changed, 12 history events added": lk export --git's commit message, the last line of the terminal view. */
export function diffSummary(diff: ExportDiff): string {
  const sizes = (part: CollectionDiff) => ({ added: part.added.length, removed: part.removed.length, changed: part.changed.length });
  return countsSummary({
    entries: sizes(diff),
    history: { added: diff.history.added.length, removed: diff.history.removed.length },
    lists: sizes(diff.lists),
    reviews: sizes(diff.reviews),
  });
}

export function countsSummary(counts: DiffCounts): string {
  const parts: string[] = [];
  const nouns = {
    entries: ['entry', 'entries'],
    history: ['history event', 'history events'],
    lists: ['list', 'lists'],
    reviews: ['review', 'reviews'],
  };
  for (const [part, [one, many]] of Object.entries(nouns) as [keyof DiffCounts, [string, string]][]) {
    for (const [verb, n] of Object.entries(counts[part])) {
      if (n > 0) parts.push(`${n.toLocaleString('en-US')} ${n === 1 ? one : many} ${verb}`);
    }
  }
  return parts.length === 0 ? 'no changes' : parts.join(', ');
}
