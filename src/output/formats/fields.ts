/** Dot paths into nested objects: `--fields work.title`, and the flattened columns of csv and tsv. */
import { getPath } from '../../util/object-path.js';

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

/** What `--fields help` asks for: list the field paths instead of the output. */
export const FIELDS_HELP = 'help';

/**
 * Every path `--fields` can name for these items: each leaf (`work.title`) and each object holding leaves (`work`,
 * printed whole in json), then the paths the view knows items may carry; sorted, as a reference to read.
 */
export function fieldPaths(items: unknown[], known: readonly string[] = []): string[] {
  const paths = new Set<string>();
  for (const item of items) {
    for (const leaf of leafPaths(item)) {
      const parts = leaf.split('.');
      for (let i = 1; i <= parts.length; i += 1) paths.add(parts.slice(0, i).join('.'));
    }
  }
  for (const path of known) paths.add(path);
  return [...paths].sort((a, b) => a.localeCompare(b, 'en'));
}

/**
 * `--fields` paths that name nothing in any of these items (a typo, or `title` for `work.title`), each with the
 * closest paths the items do carry: same last part first (`title` → `work.title`), then by edit distance.
 */
export function unmatchedFields(fields: string[], items: unknown[], known: readonly string[] = []): Array<{ field: string; closest: string[] }> {
  const objects = items.filter((item) => item !== null && typeof item === 'object');
  if (objects.length === 0) return [];
  const available = fieldPaths(objects, known);
  const out: Array<{ field: string; closest: string[] }> = [];
  for (const field of fields) {
    // A path the view knows some items carry (pages for books only) is no typo, even when this page lacks it.
    if (known.includes(field) || objects.some((item) => getPath(item, field) !== undefined)) continue;
    out.push({ field, closest: closestPaths(field, available) });
  }
  return out;
}

function closestPaths(field: string, available: string[]): string[] {
  const wanted = field.toLowerCase();
  const last = wanted.split('.').pop()!;
  const sameLeaf = available.filter((path) => path.toLowerCase().split('.').pop() === last || path.toLowerCase().endsWith(`.${wanted}`));
  if (sameLeaf.length > 0) return sameLeaf.slice(0, 3);
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  const scored = available
    .map((path) => ({
      path,
      distance: Math.min(editDistance(wanted, path.toLowerCase()), editDistance(last, path.toLowerCase().split('.').pop()!) + 1),
    }))
    .filter(({ distance }) => distance <= limit);
  // Only the nearest: "work.title", not "work.title, work.type, progress.total".
  const best = Math.min(...scored.map(({ distance }) => distance));
  return scored
    .filter(({ distance }) => distance === best)
    .sort((a, b) => a.path.length - b.path.length)
    .slice(0, 3)
    .map(({ path }) => path);
}

/** Levenshtein distance, for "did you mean". */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
