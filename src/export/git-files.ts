import { safeFileName } from './rotation.js';

/**
 * The export as the files of `lk export --git`: one pretty-printed JSON file per member of the export (library.json,
 * history.json, lists.json, reviews.json, account.json, whatever it holds), items ordered by id and keys by name,
 * so that `git diff` shows what changed line by line, and nothing moves that did not change. The export's time is
 * the commit's date, not a file: an export with nothing new makes no commit. Other top-level values go in
 * export.json. docs/api.md fixes `id` alone: items are ordered by it whatever else they carry.
 */

export interface GitFile {
  name: string;
  /** The collection this file holds (the export's member name), when it is an array. */
  collection?: string;
  /** The file's text in parts: for a collection, one part per item, each exactly as written in the file. */
  items: string[];
  /** The whole text is `[\n` + items joined with `,\n` + `\n]\n` (a collection) or items[0] + `\n`. */
  array: boolean;
}

/** Members that are the export's time: the commit's date, left out of the files. */
const TIME_MEMBERS = new Set(['exportedat', 'exported_at', 'generatedat', 'createdat']);

export function exportFiles(exported: Record<string, unknown>): GitFile[] {
  const files: GitFile[] = [];
  const loose: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(exported)) {
    if (Array.isArray(value)) {
      files.push({ name: `${safeFileName(key)}.json`, collection: key, items: byId(value).map(itemText), array: true });
    } else if (value !== null && typeof value === 'object') {
      files.push({ name: `${safeFileName(key)}.json`, items: [stableJson(value)], array: false });
    } else if (!TIME_MEMBERS.has(key.toLowerCase())) {
      loose[key] = value;
    }
  }
  if (Object.keys(loose).length > 0) files.push({ name: 'export.json', items: [stableJson(loose)], array: false });
  // Two members whose names clean up to the same file name: the first keeps it (a server would have to try hard).
  const seen = new Set<string>();
  return files.filter((file) => !seen.has(file.name) && seen.add(file.name)).sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** The file's text, a part at a time (a 100,000-entry library is never one string). */
export function* fileParts(file: GitFile): Generator<string> {
  if (!file.array) {
    yield `${file.items[0]}\n`;
    return;
  }
  if (file.items.length === 0) {
    yield '[]\n';
    return;
  }
  yield '[\n';
  for (let i = 0; i < file.items.length; i++) yield `  ${file.items[i]}${i === file.items.length - 1 ? '\n' : ',\n'}`;
  yield ']\n';
}

/** An item as it appears inside the file's array: pretty-printed, its inner lines indented one level more. */
function itemText(item: unknown): string {
  return stableJson(item, '  ');
}

/**
 * JSON.stringify(value, null, 2), byte for byte, but with every object's keys in code-point order (written out
 * rather than through a replacer: a 100,000-entry export is some 5 million values). `indent` is the current line's.
 */
function stableJson(value: unknown, indent = ''): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => inner + stableJson(item, inner)).join(',\n')}\n${indent}]`;
  }
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object)
    .filter((key) => object[key] !== undefined)
    .sort(byCodePoint);
  if (keys.length === 0) return '{}';
  return `{\n${keys.map((key) => `${inner}${JSON.stringify(key)}: ${stableJson(object[key], inner)}`).join(',\n')}\n${indent}}`;
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Items by id: numbers by value, before texts in code-point order; items without an id after them, as they came. */
function byId(items: unknown[]): unknown[] {
  const idOf = (item: unknown) => (item !== null && typeof item === 'object' ? (item as { id?: unknown }).id : undefined);
  return items
    .map((item, index) => ({ item, index, id: idOf(item) }))
    .sort((a, b) => compareIds(a.id, b.id) || a.index - b.index)
    .map(({ item }) => item);
}

function compareIds(a: unknown, b: unknown): number {
  const rank = (id: unknown) => (typeof id === 'number' ? 0 : typeof id === 'string' ? 1 : 2);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return byCodePoint(a, b);
  return 0;
}
