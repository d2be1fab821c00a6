import { cellText } from '../cell.js';
import { columnsOf, getPath } from '../fields.js';
import { csvSafeCell, sanitizeText } from '../sanitize.js';
import type { View } from '../view.js';
import type { Formatter, OutputOptions } from '../writer.js';

/**
 * The columns of csv and tsv: --fields, else every leaf of the items as a dot path. A stream cannot add columns
 * after its header, so they come from the first page (the whole page, so that a field missing on one item is
 * still found on another).
 */
function flatColumns(items: unknown[], options: OutputOptions): string[] {
  return options.fields ?? columnsOf(items);
}

/** TSV as IANA and PostgreSQL write it: tab, newline, CR and backslash escaped, control characters defused. */
export function tsvCell(value: unknown): string {
  const text = cellText(value).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
  return sanitizeText(text);
}

function tsvLine(cells: string[]): string {
  return `${cells.join('\t')}\n`;
}

/** Every field flattened, with a header unless --no-header. */
export const tsv: Formatter = {
  listing(_view, options) {
    let columns: string[] | undefined;
    return {
      async write(items) {
        let text = '';
        if (!columns) {
          columns = flatColumns(items, options);
          if (options.header) text += tsvLine(columns.map(tsvCell));
        }
        for (const item of items) text += tsvLine(columns.map((path) => tsvCell(getPath(item, path))));
        await options.io.write(text);
      },
      async end() {},
    };
  },
  async single(value, view, options) {
    const writer = tsv.listing(view ?? { columns: [], noun: ['item', 'items'] }, options);
    await writer.write([value]);
    await writer.end();
  },
};

/**
 * What a pipe gets when no format is named (like gh): the table's columns as tab-separated rows, exact values,
 * no header, no colour.
 */
export const plain: Formatter = {
  listing(view: View, options) {
    const paths = options.fields ?? view.columns.map((column) => column.path);
    return {
      async write(items) {
        let text = '';
        for (const item of items) text += tsvLine(paths.map((path) => tsvCell(path === '' ? item : getPath(item, path))));
        await options.io.write(text);
      },
      async end() {},
    };
  },
  async single(value, _view, options) {
    const paths = options.fields ?? columnsOf([value]);
    let text = '';
    for (const path of paths) text += tsvLine([path, tsvCell(getPath(value, path))]);
    await options.io.write(text);
  },
};

/** One csv record: the item's value at each column's dot path, exact; --csv-safe defuses formulas. */
export function csvRecord(item: unknown, columns: string[], csvSafe: boolean): string[] {
  return columns.map((path) => {
    const cell = cellText(getPath(item, path));
    return csvSafe ? csvSafeCell(cell) : cell;
  });
}

/** RFC 4180 through csv-stringify; every field flattened; --csv-safe defuses formulas. */
export const csv: Formatter = {
  listing(_view, options) {
    let columns: string[] | undefined;
    return {
      async write(items) {
        const { stringify } = await import('csv-stringify/sync');
        const rows: string[][] = [];
        if (!columns) {
          columns = flatColumns(items, options);
          if (options.header) rows.push(columns);
        }
        for (const item of items) rows.push(csvRecord(item, columns, options.csvSafe));
        if (rows.length > 0) await options.io.write(stringify(rows, { record_delimiter: 'unix' }));
      },
      async end() {},
    };
  },
  async single(value, view, options) {
    const writer = csv.listing(view ?? { columns: [], noun: ['item', 'items'] }, options);
    await writer.write([value]);
    await writer.end();
  },
};
