import type { IoStreams } from '../terminal/io.js';
import { columnsOf } from './fields.js';
import { getPath } from '../../util/object-path.js';
import { sanitizeText } from '../terminal/sanitize.js';
import { formatCount } from '../../util/units.js';

/**
 * The header of a streamed csv or tsv: it goes out with the first page, before the rest of the library is known.
 * So it is the union over the whole first page, plus the paths the view knows some items carry (a first page of
 * films still gets the pages column of books); a field that turns up later anyway is reported, never dropped silently.
 */
export function headerColumns(items: unknown[], known: readonly string[] = []): string[] {
  const paths = columnsOf(items);
  for (const seed of known) {
    if (paths.includes(seed)) continue;
    // The data nests under the seed (`episode.number` where the view expected a number at `episode`): the data wins.
    if (paths.some((path) => path.startsWith(`${seed}.`))) continue;
    // A value where the seed expects an object (`progress: 5`) would be hidden by its children: leave it whole.
    const parent = paths.find((path) => seed.startsWith(`${path}.`));
    if (parent !== undefined && items.some((item) => getPath(item, parent) !== null && getPath(item, parent) !== undefined)) continue;
    paths.splice(insertionPoint(paths, seed), 0, seed);
  }
  // `progress` (null on every item of the page) gives way to the seeded `progress.pages`.
  return paths.filter((path) => !paths.some((other) => other.startsWith(`${path}.`)));
}

/** After the last column sharing the longest dot prefix with `path` (its siblings), else at the end. */
function insertionPoint(paths: string[], path: string): number {
  const parts = path.split('.');
  let best = 0;
  let at = paths.length;
  paths.forEach((other, i) => {
    const otherParts = other.split('.');
    let shared = 0;
    while (shared < parts.length && shared < otherParts.length && parts[shared] === otherParts[shared]) shared += 1;
    if (shared > 0 && shared >= best) {
      best = shared;
      at = i + 1;
    }
  });
  return at;
}

/** How many missing columns a warning names before it says "and N more". */
const NAMED = 8;

/** The header as a tree of its dot paths: `true` where a column holds the value whole. */
type ColumnTree = Map<string, ColumnTree | true>;

function columnTree(columns: readonly string[]): ColumnTree {
  const root: ColumnTree = new Map();
  for (const column of columns) {
    const parts = column.split('.');
    let node = root;
    parts.forEach((part, i) => {
      const child = node.get(part);
      if (child === true) return;
      if (i === parts.length - 1) node.set(part, true);
      else if (child === undefined) node.set(part, (node = new Map()));
      else node = child;
    });
  }
  return root;
}

/**
 * Watches the items written under a fixed header for values at paths the header lacks (neither the path nor one of
 * its parents is a column), and tells once, at the end, which columns were missing and how to get them. It walks
 * the header's tree, so a row that fits (nearly all of them) costs no string building.
 */
export class LateFields {
  private readonly tree: ColumnTree;
  private readonly missing = new Set<string>();
  private rows = 0;
  private told = false;

  constructor(columns: readonly string[]) {
    this.tree = columnTree(columns);
  }

  check(item: unknown): void {
    if (this.uncovered(item, this.tree, '')) this.rows += 1;
  }

  /** Adds the paths under `value` that no column covers; true when there was any. */
  private uncovered(value: unknown, node: ColumnTree, prefix: string): boolean {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      // A value where the header expects an object's fields (`progress: 5` under progress.pages): lost.
      if (value === null || value === undefined || !prefix) return false;
      this.missing.add(prefix);
      return true;
    }
    let found = false;
    for (const key in value) {
      const child = node.get(key);
      if (child === true) continue;
      const path = prefix ? `${prefix}.${key}` : key;
      const inner = (value as Record<string, unknown>)[key];
      if (child === undefined) found = this.allLeaves(inner, path) || found;
      else found = this.uncovered(inner, child, path) || found;
    }
    return found;
  }

  /** Every non-null leaf under a path the header does not have at all. */
  private allLeaves(value: unknown, path: string): boolean {
    if (value === null || value === undefined) return false;
    if (typeof value !== 'object' || Array.isArray(value)) {
      this.missing.add(path);
      return true;
    }
    let found = false;
    for (const key in value) found = this.allLeaves((value as Record<string, unknown>)[key], `${path}.${key}`) || found;
    return found;
  }

  /** The warning, once; shown even with -q, since rows of a backup lack data. */
  report(io: IoStreams, format: string, total: number): void {
    if (this.told || this.missing.size === 0) return;
    this.told = true;
    const names = [...this.missing].map((path) => sanitizeText(path));
    const named = names.slice(0, NAMED).join(', ') + (names.length > NAMED ? ` and ${formatCount(names.length - NAMED)} more` : '');
    const rows = `${formatCount(this.rows)} of ${formatCount(total)} row${total === 1 ? '' : 's'}`;
    io.warn(`lk: warning: left out fields the ${format} header lacks, in ${rows}: ${named} (the header was fixed by the first page)`);
    io.warn('lk: name the columns you need with --fields, or use --json or --ndjson to keep every field');
  }
}
