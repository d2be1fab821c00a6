import { text, titleKey } from '../mirror/rows.js';
import { firstOf, getPath } from '../util/object-path.js';

/**
 * What lk next and lk status read of the items the API sends, loosely (docs/api.md fixes few names): read the same way
 * from a response and from the mirror's copy of it, so that both give the same answer.
 */

export const entryIdOf = (entry: unknown): string | undefined => text(getPath(entry, 'id')) ?? undefined;

/** Read as the mirror's entries columns are (mirror/rows.ts entryRow). */
export { entryDomainOf, entryTitleOf, entryWorkIdOf } from '../mirror/rows.js';

/** The entry an event or a calendar item belongs to, when it names it; else its work's id (one of the two). */
export function ownerOf(item: unknown): { entryId: string | null; workId: string | null } {
  return {
    entryId: text(firstOf(item, ['entryId', 'entry.id'])),
    workId: text(firstOf(item, ['work.id', 'show.id', 'workId'])),
  };
}

/** An ISO date-time as milliseconds, or undefined. */
export function instantOf(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

export const airsAtOf = (item: unknown): number | undefined => instantOf(firstOf(item, ['airsAt', 'airDate', 'airdate', 'date']));

export const showTitleOf = (item: unknown): string | null => text(firstOf(item, ['show.title', 'work.title', 'show.name']));

export { titleKey };

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
