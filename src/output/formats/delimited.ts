import type * as CsvSync from 'csv-stringify/sync';
import { cellText } from './cell.js';
import { columnsOf } from './fields.js';
import { getPath } from '../../util/object-path.js';
import { headerColumns, LateFields } from './flat-columns.js';
import { csvSafeCell, escapeForTerminal, sanitizeText } from '../terminal/sanitize.js';
import { columnValue, pathColumn, type View } from './view.js';
import type { Formatter, ListingWriter, OutputOptions } from './writer.js';

/**
 * A csv or tsv listing: --fields, else every leaf of the items as a dot path. A stream cannot add columns after its
 * header, so they are fixed with the first page that has items (see headerColumns); values at paths found only
 * later are reported on stderr at the end, not dropped silently.
 */
function flatListing(
  view: View,
  options: OutputOptions,
  format: string,
  lines: (header: string[] | undefined, items: unknown[], columns: string[]) => Promise<string>,
): ListingWriter {
  let columns: string[] | undefined;
  let late: LateFields | undefined;
  let rows = 0;
  const report = () => late?.report(options.io, format, rows);
  return {
    async write(items) {
      if (items.length === 0) return;
      let header: string[] | undefined;
      if (!columns) {
        columns = options.fields ?? headerColumns(items, view.fields);
        if (!options.fields) late = new LateFields(columns);
        if (options.header) header = columns;
      }
      if (late && rows > 0) for (const item of items) late.check(item);
      rows += items.length;
      await options.io.write(await lines(header, items, columns));
    },
    async end() {
      // Nothing came, but the columns were named: a header alone still tells a script what the file holds.
      if (!columns && options.fields && options.header) await options.io.write(await lines(options.fields, [], options.fields));
      report();
    },
    abort: report,
  };
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
  listing(view, options) {
    return flatListing(view, options, 'tsv', async (header, items, columns) => {
      let text = header ? tsvLine(header.map(tsvCell)) : '';
      for (const item of items) text += tsvLine(columns.map((path) => tsvCell(getPath(item, path))));
      return text;
    });
  },
  async single(value, view, options) {
    // One resource is known whole: its own fields are the columns, nothing seeded.
    const writer = tsv.listing({ columns: [], noun: view?.noun ?? ['item', 'items'] }, options);
    await writer.write([value]);
    await writer.end();
  },
};

/**
 * What a pipe gets when no format is named (like gh): the table's columns as tab-separated rows, each column's exact
 * value (the server's date, not "2d ago"; the first spelling present; S02E05), no header, no colour.
 */
export const plain: Formatter = {
  listing(view: View, options) {
    const columns = options.fields ? options.fields.map(pathColumn) : view.columns;
    return {
      async write(items) {
        let text = '';
        for (const item of items) text += tsvLine(columns.map((column) => tsvCell(columnValue(column, item))));
        await options.io.write(text);
      },
      async end() {},
    };
  },
  async single(value, _view, options) {
    const paths = options.fields ?? columnsOf([value]);
    let text = '';
    for (const path of paths) text += tsvLine([tsvCell(path), tsvCell(getPath(value, path))]);
    await options.io.write(text);
  },
};

/** One csv record: the item's value at each column's dot path, exact; --csv-safe defuses formulas. */
export function csvRecord(item: unknown, columns: string[], csvSafe: boolean): string[] {
  return columns.map((path) => {
    const value = getPath(item, path);
    const cell = cellText(value);
    // Only text can be a formula: a rating of -2 stays a number.
    return csvSafe && typeof value === 'string' ? csvSafeCell(cell) : cell;
  });
}

/** Loaded with the first page, then kept: an import per page copies the module's exports each time (esbuild's interop). */
let csvStringify: typeof CsvSync.stringify | undefined;

/** RFC 4180 through csv-stringify; every field flattened; --csv-safe defuses formulas. */
export const csv: Formatter = {
  listing(view, options) {
    return flatListing(view, options, 'csv', async (header, items, columns) => {
      // csv-stringify only for --csv: tsv and plain are written by hand.
      const stringify = (csvStringify ??= (await import('csv-stringify/sync')).stringify);
      const rows: string[][] = header ? [header] : [];
      for (const item of items) rows.push(csvRecord(item, columns, options.csvSafe));
      const text = rows.length > 0 ? stringify(rows, { record_delimiter: 'unix' }) : '';
      // CSV is exact in a pipe or a file; on a terminal the escapes in it are shown, not obeyed.
      return options.io.stdoutIsTTY ? escapeForTerminal(text) : text;
    });
  },
  async single(value, view, options) {
    const writer = csv.listing({ columns: [], noun: view?.noun ?? ['item', 'items'] }, options);
    await writer.write([value]);
    await writer.end();
  },
};
