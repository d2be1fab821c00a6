import { isObject, sameValue } from '../util/json-value.js';
import type { FieldChange, Item } from './model.js';

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
    if (isObject(a) && isObject(b)) changes.push(...fieldChanges(a, b, `${field}.`));
    else if (!sameValue(a, b)) changes.push({ field, before: a ?? null, after: b ?? null });
  }
  return changes;
}
