import { firstOf, getPath } from '../util/object-path.js';
import { text } from './values.js';
import { workDomain, workIdOf, workTypeOf } from './work.js';

export { airsAtOf } from './calendar.js';

/**
 * A library entry, and what events, calendar items and reviews say of the entry they belong to: read the same way
 * by the mirror's columns (mirror/rows.ts), lk next and lk status from the API or the mirror (overview/), lk diff
 * and lk feed, so that each gives the same answer.
 */

export const entryIdOf = (entry: unknown): string | undefined => text(getPath(entry, 'id')) ?? undefined;

/** Where an entry's title is, first present first (lk diff's screen reads it there too). */
export const ENTRY_TITLE_PATHS = ['work.title', 'work.name', 'title'] as const;

/** An entry's title, as the entries.title column has it. */
export const entryTitleOf = (entry: unknown): string | null => text(firstOf(entry, ENTRY_TITLE_PATHS));

/** An entry's domain, as the entries.domain column has it: its work's, else its own. */
export function entryDomainOf(entry: unknown): string | null {
  return workDomain(firstOf(entry, ['work', 'show'])) ?? text(getPath(entry, 'domain'));
}

/** An entry's work id, as the entries.work_id column has it. */
export const entryWorkIdOf = (entry: unknown): string | null => workIdOf(entry);

/** Where an event, a review or a calendar item names its entry (lk convert's exports say libraryEntryId, libraryId). */
export const OWNER_ENTRY_PATHS = ['entryId', 'entry.id', 'libraryEntryId', 'libraryId'] as const;

/** The entry an event, a review or a calendar item names, when it names one. */
export const ownerEntryIdOf = (item: unknown): string | null => text(firstOf(item, OWNER_ENTRY_PATHS));

/** The entry an event or a calendar item belongs to, when it names it; else its work's id (one of the two). */
export function ownerOf(item: unknown): { entryId: string | null; workId: string | null } {
  return { entryId: ownerEntryIdOf(item), workId: workIdOf(item) };
}

/** Where an entry's dates are (docs/api.md: `dates`; other instances flat). */
export const ENTRY_ADDED_PATHS = ['dates.added', 'addedAt', 'createdAt'] as const;
const ENTRY_STARTED_PATHS = ['dates.started', 'startedAt'] as const;
const ENTRY_FINISHED_PATHS = ['dates.finished', 'finishedAt', 'completedAt'] as const;
const ENTRY_UPDATED_PATHS = ['dates.updated', 'updatedAt'] as const;

/** When the entry was added, started, finished, last updated: as the server wrote it. */
export const entryAddedAtOf = (entry: unknown): unknown => firstOf(entry, ENTRY_ADDED_PATHS);
export const entryStartedAtOf = (entry: unknown): unknown => firstOf(entry, ENTRY_STARTED_PATHS);
export const entryFinishedAtOf = (entry: unknown): unknown => firstOf(entry, ENTRY_FINISHED_PATHS);
export const entryUpdatedAtOf = (entry: unknown): unknown => firstOf(entry, ENTRY_UPDATED_PATHS);

/** The entry's status and phase (docs/api.md names both; an instance may leave the phase out). */
export const entryStatusOf = (entry: unknown): unknown => getPath(entry, 'status');
export const entryPhaseOf = (entry: unknown): unknown => getPath(entry, 'phase');

/** The entry's progress object (docs/api.md), as sent: output/wording/views.ts's progressText reads it loosely. */
export const entryProgressOf = (entry: unknown): unknown => getPath(entry, 'progress');

/** Where an entry's rating is (lk convert's exports say score, myRating). */
export const ENTRY_RATING_PATHS = ['rating', 'score', 'myRating'] as const;
export const entryRatingOf = (entry: unknown): unknown => firstOf(entry, ENTRY_RATING_PATHS);

/**
 * Members that hold the owner's notes on an entry or a list item (private: never on a public surface, so lk serve's
 * projection removes every one of them). docs/api.md says notes; other instances note, comment.
 */
export const NOTE_MEMBERS = ['notes', 'note', 'comment'] as const;

/** The owner's notes on an entry. */
export const entryNotesOf = (entry: unknown): unknown => firstOf(entry, NOTE_MEMBERS);

/** The kind of work an entry is of (film, series, book…), as its work says it. */
export const entryTypeOf = (entry: unknown): string | null => workTypeOf(getPath(entry, 'work'));

/** Seen / aired episodes of a show from its progress ({episodes, total}, or {current, total, unit: episodes}). */
export function episodesLeft(progress: unknown): number | null {
  if (progress === null || typeof progress !== 'object') return null;
  const p = progress as Record<string, unknown>;
  const unit = typeof p.unit === 'string' ? p.unit.toLowerCase() : undefined;
  const seen = typeof p.episodes === 'number' ? p.episodes : unit?.startsWith('ep') ? p.current : undefined;
  const aired = p.total ?? p.totalEpisodes;
  if (typeof seen !== 'number' || typeof aired !== 'number') return null;
  return Math.max(0, aired - seen);
}

/**
 * The figures of an entry's progress object (docs/api.md: `progress`, its members per domain), under the spellings
 * lk convert reads: episodes seen, pages read, minutes played, and the total. Each as sent (a caller checks it is a
 * number); the {current, unit} form is the caller's to read.
 */
export function progressFiguresOf(progress: unknown): { episodes: unknown; pages: unknown; minutes: unknown; total: unknown } {
  return {
    episodes: firstOf(progress, ['episodes', 'episode', 'watched']),
    pages: firstOf(progress, ['pages', 'page']),
    minutes: firstOf(progress, ['minutes', 'playtimeMinutes']),
    total: firstOf(progress, ['total', 'of', 'totalEpisodes', 'totalPages']),
  };
}
