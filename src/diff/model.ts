/**
 * What changed between two states of an account, as data: entries matched by id (added, removed, changed field by
 * field), history events added and removed (with counts per domain), lists and reviews added, removed and changed.
 * SPEC.md fixes `id` and a few entry fields only; every other field is compared as it comes, whatever its name.
 */

export type Item = Record<string, unknown>;

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

/** "3 entries changed, 12 history events added": lk export --git's commit message, the last line of the terminal view. */
export function diffSummary(diff: ExportDiff): string {
  const parts: string[] = [];
  const counted = (n: number, one: string, many: string, verb: string) => {
    if (n > 0) parts.push(`${n.toLocaleString('en-US')} ${n === 1 ? one : many} ${verb}`);
  };
  const collection = (part: CollectionDiff, one: string, many: string) => {
    counted(part.added.length, one, many, 'added');
    counted(part.removed.length, one, many, 'removed');
    counted(part.changed.length, one, many, 'changed');
  };
  collection(diff, 'entry', 'entries');
  counted(diff.history.added.length, 'history event', 'history events', 'added');
  counted(diff.history.removed.length, 'history event', 'history events', 'removed');
  collection(diff.lists, 'list', 'lists');
  collection(diff.reviews, 'review', 'reviews');
  return parts.length === 0 ? 'no changes' : parts.join(', ');
}
