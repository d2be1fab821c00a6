import { columnsOf, getPath } from '../fields.js';
import { cellText } from '../cell.js';
import { sanitizeText } from '../sanitize.js';
import { columnText, pathColumn, type Column, type View } from '../view.js';
import { displayWidth, padToWidth, truncate } from '../width.js';
import type { Formatter, OutputOptions } from '../writer.js';

const GAP = 2;
const MIN_FLEX_WIDTH = 8;

/**
 * Aligned, borderless columns for a person at a terminal: values shortened (dates relative, titles cut with …) so
 * that a row fits the window. The widest flexible column shrinks first, then the others, widest first.
 */
export const table: Formatter = {
  listing(view, options) {
    const columns = options.fields ? options.fields.map((path) => view.columns.find((c) => c.path === path) ?? pathColumn(path)) : view.columns;
    const rows: string[][] = [];
    const rowItems: unknown[] = [];
    return {
      async write(items) {
        for (const item of items) {
          rows.push(columns.map((column) => sanitizeText(columnText(column, item, options.display))));
          rowItems.push(item);
        }
      },
      async end() {
        if (rows.length === 0) return;
        await options.io.write(await renderTable(columns, rows, rowItems, options));
      },
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

async function renderTable(columns: Column[], rows: string[][], items: unknown[], options: OutputOptions): Promise<string> {
  const { default: Table } = await import('cli-table3');
  const { colors } = options.display;
  const headers = columns.map((column) => column.header.toUpperCase());
  const widths = fitWidths(columns, headers, rows, options.io.columns);
  const table = new Table({
    head: options.header ? headers.map((header, i) => colors.bold(truncate(header, widths[i]!))) : [],
    chars: {
      top: '', 'top-mid': '', 'top-left': '', 'top-right': '', bottom: '', 'bottom-mid': '', 'bottom-left': '',
      'bottom-right': '', left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '',
    },
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': GAP, compact: true },
    wordWrap: false,
  });
  rows.forEach((row, r) => {
    table.push(row.map((cell, i) => {
      const column = columns[i]!;
      const text = truncate(cell, widths[i]!);
      if (column.paint) return column.paint(text, items[r], colors);
      return column.dim ? colors.dim(text) : text;
    }));
  });
  // cli-table3 pads the last column too; trailing blanks only get in the way of copy and paste.
  return `${table.toString().split('\n').map((line) => line.trimEnd()).join('\n')}\n`;
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
