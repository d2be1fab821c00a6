import type { Colors } from 'picocolors/types.js';
import { cellText } from './cell.js';
import { getPath } from './fields.js';

export interface DisplayContext {
  now: number;
  colors: Colors;
}

/** One column of a listing: where its value lives, and how a table shows it. */
export interface Column {
  header: string;
  /** Dot path of the exact value (what pipes and --fields see). */
  path: string;
  /** Table text: shortened, localised, coloured; defaults to the exact value. */
  display?: (item: unknown, ctx: DisplayContext) => string;
  /** Shrinks first when the table is wider than the terminal (usually the title). */
  flex?: boolean;
  /** A secondary column, dimmed. */
  dim?: boolean;
  /** Colour for the (already shortened) table text, e.g. by phase. */
  paint?: (text: string, item: unknown, colors: Colors) => string;
}

export interface View {
  columns: Column[];
  /** What one item is called in notices: ["entry", "entries"]. */
  noun: [string, string];
}

export function columnText(column: Column, item: unknown, ctx: DisplayContext): string {
  if (column.display) return column.display(item, ctx);
  return cellText(getPath(item, column.path));
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
    return { noun, columns: [{ header: 'value', path: '', display: (item) => cellText(item) }] };
  }
  return { noun, columns: paths.slice(0, maxColumns).map(pathColumn) };
}
