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
