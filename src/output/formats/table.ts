import { columnsOf, getPath } from '../fields.js';
import { cellText } from '../cell.js';
import { sanitizeText } from '../sanitize.js';
import { columnText, pathColumn, type Column } from '../view.js';
import { displayWidth, padToWidth, truncate } from '../width.js';
import type { Formatter } from '../writer.js';

const GAP = 2;
const MIN_FLEX_WIDTH = 8;

/**
 * Aligned, borderless columns for a person at a terminal: values shortened (dates relative, titles cut with …) so
 * that a row fits the window. Streams like every other format: the column widths are fitted to the window from the
 * first page (the widest flexible column shrinks first, then the others, widest first), the header goes out once,
 * and each page's rows follow as they arrive, cut to the same widths, so --all shows rows at once and holds none.
 */
export const table: Formatter = {
  listing(view, options) {
    const columns = options.fields ? options.fields.map((path) => view.columns.find((c) => c.path === path) ?? pathColumn(path)) : view.columns;
    const { colors } = options.display;
    const headers = columns.map((column) => column.header.toUpperCase());
    let widths: number[] | undefined;
    /** Cut widths: the columns' own, but the last column may use the rest of the line (a later id one digit longer). */
    let room: number[] = [];
    return {
      async write(items) {
        if (items.length === 0) return;
        const rows = items.map((item) => columns.map((column) => sanitizeText(columnText(column, item, options.display))));
        let text = '';
        if (!widths) {
          widths = fitWidths(columns, headers, rows, options.io.columns);
          const before = widths.slice(0, -1).reduce((sum, width) => sum + width + GAP, 0);
          room = widths.map((width, i) => (i === widths!.length - 1 ? Math.max(width, options.io.columns - before) : width));
          if (options.header) text += tableLine(headers.map((header, i) => truncate(header, widths![i]!)), widths, (cell) => colors.bold(cell));
        }
        rows.forEach((row, r) => {
          text += tableLine(row.map((cell, i) => truncate(cell, room[i]!)), widths!, (cell, i) => {
            const column = columns[i]!;
            if (column.paint) return column.paint(cell, items[r], colors);
            return column.dim ? colors.dim(cell) : cell;
          });
        });
        await options.io.write(text);
      },
      async end() {},
    };
  },
  async single(value, _view, options) {
    const paths = options.fields ?? columnsOf([value]);
    const { colors } = options.display;
    // Field names come from the server as much as values do.
    const labels = paths.map((path) => sanitizeText(path));
    const keyWidth = Math.max(...labels.map((label) => displayWidth(label)), 0);
    const valueWidth = Math.max(options.io.columns - keyWidth - GAP, 10);
    let text = '';
    paths.forEach((path, i) => {
      const cell = truncate(sanitizeText(cellText(getPath(value, path))), valueWidth);
      text += `${colors.dim(padToWidth(labels[i]!, keyWidth))}${' '.repeat(GAP)}${cell}\n`;
    });
    await options.io.write(text);
  },
};

/**
 * One row: each cell (already cut to its width) padded to its column's width by display width, so that wide
 * characters and emoji stay aligned, then coloured; no trailing blanks, which only get in the way of copy and paste.
 */
function tableLine(cells: string[], widths: number[], paint: (cell: string, i: number) => string): string {
  let line = '';
  cells.forEach((cell, i) => {
    const last = i === cells.length - 1;
    const shown = cell === '' ? '' : paint(cell, i);
    line += shown + (last ? '' : ' '.repeat(Math.max(0, widths[i]! - displayWidth(cell)) + GAP));
  });
  return `${line.trimEnd()}\n`;
}

/** Natural widths, then shrink until the row fits the terminal. */
export function fitWidths(columns: Column[], headers: string[], rows: string[][], terminalWidth: number): number[] {
  const widths = columns.map((_, i) => Math.max(displayWidth(headers[i]!), ...rows.map((row) => displayWidth(row[i]!))));
  const budget = terminalWidth - GAP * (columns.length - 1);
  let excess = widths.reduce((sum, w) => sum + w, 0) - budget;
  const shrinkOrder = columns
    .map((column, i) => ({ i, flex: Boolean(column.flex) }))
    .sort((a, b) => Number(b.flex) - Number(a.flex) || widths[b.i]! - widths[a.i]!);
  for (const { i } of shrinkOrder) {
    if (excess <= 0) break;
    const floor = Math.min(widths[i]!, Math.max(MIN_FLEX_WIDTH, displayWidth(headers[i]!)));
    const cut = Math.min(excess, widths[i]! - floor);
    widths[i] = widths[i]! - cut;
    excess -= cut;
  }
  return widths;
}
