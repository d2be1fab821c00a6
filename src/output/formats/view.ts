import type { Colors } from '../terminal/colors.js';
import { labelOf } from './cell.js';
import { getPath } from '../../util/object-path.js';

export interface DisplayContext {
  now: number;
  colors: Colors;
  /** Titles in a table may link to their page (OSC 8): output/terminal/hyperlinks.ts decides. */
  hyperlinks?: boolean;
}

/** One column of a listing: where its value lives, and how a table shows it. */
export interface Column {
  header: string;
  /** Dot path of the value (what --fields names, and what the column shows unless `value` says otherwise). */
  path: string;
  /**
   * The exact value a pipe gets, when it is not simply the value at `path`: the first spelling present for fields
   * docs/api.md does not name, S02E05 from season and episode. Unshortened, uncoloured, not localised.
   */
  value?: (item: unknown) => unknown;
  /** Table text: shortened, localised, coloured; defaults to the exact value. */
  display?: (item: unknown, ctx: DisplayContext) => string;
  /** Shrinks first when the table is wider than the terminal (usually the title). */
  flex?: boolean;
  /** A secondary column, dimmed. */
  dim?: boolean;
  /** Texts the column may show on a later page (every status · phase of docs/api.md, Statuses and phases): widths allow for them. */
  expected?: string[];
  /** The item's id: the first column left out of a narrow table (pipes, --json and `show` keep it whole). */
  id?: boolean;
  /** Numbers line up on the right (table only). */
  align?: 'left' | 'right';
  /** Colour for the (already shortened) table text, e.g. by phase. */
  paint?: (text: string, item: unknown, colors: Colors) => string;
  /** The page the cell links to on terminals that support OSC 8 (docs/api.md: fields named url link to the web app). */
  link?: (item: unknown) => unknown;
}

export interface View {
  columns: Column[];
  /** What one item is called in notices: ["entry", "entries"]. */
  noun: [string, string];
  /**
   * Leaf paths only some items carry (pages for books, minutes for games): csv and tsv headers include them from the
   * start, since a stream cannot add a column once its header is out and the first page may hold no book.
   */
  fields?: string[];
}

/** The exact value of a column for one item: what a pipe prints. */
export function columnValue(column: Column, item: unknown): unknown {
  if (column.value) return column.value(item);
  return column.path === '' ? item : getPath(item, column.path);
}

/** The table text of a column for one item: its display function, else the exact value as text. */
export function columnText(column: Column, item: unknown, ctx: DisplayContext): string {
  if (column.display) return column.display(item, ctx);
  return labelOf(columnValue(column, item));
}

/** A column for a plain path, for --fields and for shapes no view knows. */
export function pathColumn(path: string): Column {
  return { header: path, path };
}

/** When nothing describes the resource: its first few scalar fields, so a table stays readable. */
export function genericView(sample: unknown[], noun: [string, string] = ['item', 'items'], maxColumns = 6): View {
  const paths: string[] = [];
  for (const item of sample.slice(0, 20)) {
    if (item === null || typeof item !== 'object') continue;
    for (const [key, value] of Object.entries(item)) {
      if (paths.includes(key)) continue;
      if (value !== null && typeof value === 'object') {
        if (typeof (value as { title?: unknown }).title === 'string' && !paths.includes(`${key}.title`)) paths.push(`${key}.title`);
        continue;
      }
      paths.push(key);
    }
  }
  if (paths.length === 0 && sample.some((item) => item === null || typeof item !== 'object')) {
    return { noun, columns: [{ header: 'value', path: '', value: (item) => item }] };
  }
  return { noun, columns: paths.slice(0, maxColumns).map(pathColumn) };
}
