import { firstOf, getPath } from '../util/object-path.js';
import { instantOf, text } from './values.js';
import { workDomain } from './work.js';

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
export const entryWorkIdOf = (entry: unknown): string | null => text(firstOf(entry, ['work.id', 'workId']));

/** The entry an event, a review or a calendar item names, when it names one. */
export const ownerEntryIdOf = (item: unknown): string | null => text(firstOf(item, ['entryId', 'entry.id']));

/** The entry an event or a calendar item belongs to, when it names it; else its work's id (one of the two). */
export function ownerOf(item: unknown): { entryId: string | null; workId: string | null } {
  return {
    entryId: ownerEntryIdOf(item),
    workId: text(firstOf(item, ['work.id', 'show.id', 'workId'])),
  };
}

/** When a calendar item airs, in milliseconds. */
export const airsAtOf = (item: unknown): number | undefined => instantOf(firstOf(item, ['airsAt', 'airDate', 'airdate', 'date']));

/** The show a calendar item is an episode of. */
export const showTitleOf = (item: unknown): string | null => text(firstOf(item, ['show.title', 'work.title', 'show.name']));

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
