/** Dot paths into nested objects: `--fields work.title`, and the flattened columns of csv and tsv. */
import { getPath } from '../util/object-path.js';


/** Parses `--fields id, work.title ,status` into clean dot paths. */
export function parseFieldList(raw: string): string[] {
  return raw
    .split(',')
    .map((field) => field.trim())
    .filter((field) => field.length > 0);
}

/** A new object holding only the given paths, nested as in the original (so `jq .work.title` still works). */
export function pickPaths(value: unknown, paths: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const path of paths) {
    const parts = path.split('.');
    let target = out;
    for (const part of parts.slice(0, -1)) {
      const next = target[part];
      if (next === null || typeof next !== 'object' || Array.isArray(next)) target[part] = {};
      target = target[part] as Record<string, unknown>;
    }
    const found = getPath(value, path);
    target[parts[parts.length - 1]!] = found === undefined ? null : found;
  }
  return out;
}

/**
 * Dot paths of every leaf: nested objects become `a.b` columns, arrays stay whole (a cell holds their JSON).
 * A null object (`progress: null`) is a leaf too, unless another item shows the object's fields.
 */
export function leafPaths(value: unknown, prefix = '', out: string[] = []): string[] {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0 && prefix) out.push(prefix);
    for (const [key, child] of entries) leafPaths(child, prefix ? `${prefix}.${key}` : key, out);
  } else if (prefix) {
    out.push(prefix);
  }
  return out;
}

/** The union of leaf paths over items, in first-seen order, without a path that another path nests under. */
export function columnsOf(items: unknown[]): string[] {
  const seen = new Set<string>();
  for (const item of items) for (const path of leafPaths(item)) seen.add(path);
  const all = [...seen];
  const prefixes = new Set<string>();
  for (const path of all) {
    const parts = path.split('.');
    for (let i = 1; i < parts.length; i += 1) prefixes.add(parts.slice(0, i).join('.'));
  }
  return all.filter((path) => !prefixes.has(path));
}
