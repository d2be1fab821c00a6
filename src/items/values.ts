import { getPath } from '../util/object-path.js';

/**
 * The values an item's fields hold, read loosely: docs/api.md fixes few field names and fewer types, so an id may be
 * a number or a string and a date any text. Every layer reads items through src/items (util/ below it, nothing else).
 */

/** A field as text: strings as they are, numbers and booleans written out (ids may be numbers); null otherwise. */
export function text(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  return null;
}

/** An item's own id (docs/api.md names it), as sent: a number or a string. */
export const itemIdOf = (item: unknown): unknown => getPath(item, 'id');

/** Case- and accent-insensitive sort key for titles (A to Z): the mirror's title_key column and lk next's order. */
export function titleKey(title: string | null): string | null {
  if (title === null) return null;
  if (!/[^\x00-\x7f]/.test(title)) return title.toLowerCase();
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/** An ISO date-time as milliseconds, or undefined. */
export function instantOf(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * The first of `paths` holding a count: a finite number, or a string of digits (an instance may send "2"); undefined
 * when none does. Unlike firstOf, a present value of another kind (an `episode` object) does not stop the search: the
 * next spelling (`episode.number`) may hold the count.
 */
export function firstCount(item: unknown, paths: readonly string[]): number | undefined {
  for (const path of paths) {
    const value = getPath(item, path);
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (typeof value === 'string' && /^\d{1,9}$/.test(value)) return Number(value);
  }
  return undefined;
}
