import type { FieldChange, Item } from './model.js';

/** Plain JSON objects (not arrays, not null). */
export function isItem(value: unknown): value is Item {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Deep equality of parsed JSON, member order ignored (two servers, or two versions of one, may order keys apart). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((value, i) => sameValue(value, b[i]));
  if (!isItem(a) || !isItem(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && sameValue(a[key], b[key]));
}

/**
 * Each leaf that differs, by dot path (nested objects are followed, arrays compared whole): rating, notes,
 * dates.finished, work.title. A field present on one side only has null on the other.
 */
export function fieldChanges(before: Item, after: Item, prefix = ''): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const field = prefix + key;
    const a = before[key];
    const b = after[key];
    if (isItem(a) && isItem(b)) changes.push(...fieldChanges(a, b, `${field}.`));
    else if (!sameValue(a, b)) changes.push({ field, before: a ?? null, after: b ?? null });
  }
  return changes;
}
