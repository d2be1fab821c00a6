import { columnsOf } from './fields.js';
import { getPath } from '../../util/object-path.js';
import { cellText } from './cell.js';
import { detailedDate, ISO_DATE_TIME } from './dates.js';
import { sanitizeText } from '../terminal/sanitize.js';
import { paintPhase } from './style.js';
import { phaseOf } from '../../vocabulary.js';
import { columnText, pathColumn, type Column } from './view.js';
import { cutForDisplay, displayWidth, truncate } from '../terminal/width.js';
import { hyperlink, linkableUrl } from '../terminal/hyperlinks.js';
import type { Formatter } from './writer.js';
import { alignedLines } from './aligned-lines.js';

const GAP = 2;
const MIN_FLEX_WIDTH = 8;
/** What a title keeps before the other columns give up any width. */
const FLEX_KEEP = 20;

/**
 * Aligned, borderless columns for a person at a terminal: values shortened (dates relative, titles cut
 * with …) so that a row fits the window. Streams like every other format: the column widths are fitted to the window
 * from the first page (the widest flexible column shrinks first, then the others, widest first), the header goes out
 * once, and each page's rows follow as they arrive, laid out with the same widths, so --all shows rows at once and
 * holds none.
 */
export const table: Formatter = {
  listing(view, options) {
    const columns = options.fields ? options.fields.map((path) => view.columns.find((c) => c.path === path) ?? pathColumn(path)) : view.columns;
    const { colors } = options.display;
    const headers = columns.map((column) => column.header.toUpperCase());
    let widths: number[] | undefined;
    /** Cut widths: the columns' own, but the last column may use the rest of the line (a later id one digit longer). */
    let room: number[] = [];
    /** The columns that fit, by index, and those that show only the primary part of their cells. */
    let shown: number[] = [];
    let primaryOnly: boolean[] = [];
    return {
      async write(items) {
        if (items.length === 0) return;
        const rows = items.map((item) =>
          columns.map((column) => sanitizeText(cutForDisplay(columnText(column, item, options.display), options.io.columns))),
        );
        const first = !widths;
        if (!widths) {
          // Rows of later pages may be wider: what a column expects to show counts as a row of the first page.
          const sample = [...rows, ...expectedRows(columns)];
          widths = fitWidths(columns, headers, sample, options.io.columns);
          shown = widths.flatMap((width, i) => (width > 0 ? [i] : []));
          const lastShown = shown.at(-1)!;
          const before = shown.slice(0, -1).reduce((sum, i) => sum + widths![i]! + GAP, 0);
          // A left-aligned last column may use the rest of the line (a later id one digit longer); numbers stay put.
          room = widths.map((width, i) => (i === lastShown && columns[i]!.align !== 'right' ? Math.max(width, options.io.columns - before) : width));
          // A column shows its secondary parts (" · DONE") on every row or on none.
          primaryOnly = widths.map((width, i) => sample.some((row) => displayWidth(row[i]!) > width));
        }
        const lines = first && options.header ? [shown.map((i) => colors.bold(truncate(headers[i]!, widths![i]!)))] : [];
        for (const [r, row] of rows.entries()) {
          lines.push(
            shown.map((i) => {
              const text = primaryOnly[i] ? primaryPart(row[i]!) : row[i]!;
              const cell = fitCell(text, room[i]!);
              const column = columns[i]!;
              if (cell === '') return cell;
              const painted = column.paint ? column.paint(cell, items[r], colors) : column.dim ? colors.dim(cell) : cell;
              // Linked after the cut: the wrapper takes no room, and a cut must never fall inside it.
              const url = options.display.hyperlinks && column.link ? linkableUrl(column.link(items[r])) : undefined;
              return url ? hyperlink(painted, url) : painted;
            }),
          );
        }
        await options.io.write(
          alignedLines(lines, { widths: shown.map((i) => room[i]!), aligns: shown.map((i) => columns[i]!.align ?? 'left'), gap: GAP }),
        );
      },
      async end() {},
    };
  },
  async single(value, _view, options) {
    const paths = options.fields ?? columnsOf([value]);
    if (paths.length === 0) return;
    const { colors, now } = options.display;
    // Field names come from the server as much as values do.
    const labels = paths.map((path) => sanitizeText(path));
    const keyWidth = Math.max(...labels.map((label) => displayWidth(label)), 0);
    const valueWidth = Math.max(options.io.columns - keyWidth - GAP, 10);
    const rows = paths.map((path, i): [string, string] => {
      const raw = getPath(value, path);
      const text = typeof raw === 'string' && ISO_DATE_TIME.test(raw) ? detailedDate(raw, now) : cellText(raw);
      // A URL is never cut: a cut one leads nowhere; the terminal wraps it and it still copies whole.
      const cell = linkableUrl(raw) ? sanitizeText(text) : truncate(sanitizeText(cutForDisplay(text, valueWidth)), valueWidth);
      // A status or phase in its phase's colour, as in the listing.
      const leaf = path.split('.').pop();
      const shown = (leaf === 'status' || leaf === 'phase') && phaseOf(raw) ? paintPhase(cell, raw, colors) : cell;
      return [colors.dim(labels[i]!), shown];
    });
    const widest = Math.max(valueWidth, ...rows.map(([, shown]) => displayWidth(shown)));
    await options.io.write(alignedLines(rows, { widths: [keyWidth, widest], aligns: ['left', 'left'], gap: GAP }));
  },
};

/** A column's expected texts as extra rows (blank in the other columns), widest first. */
function expectedRows(columns: Column[]): string[][] {
  const most = Math.max(0, ...columns.map((column) => column.expected?.length ?? 0));
  return Array.from({ length: most }, (_, r) => columns.map((column) => column.expected?.[r] ?? ''));
}

/** " · " joins a value and what qualifies it (a status and its phase): the part before it is the one to keep. */
const SECONDARY = ' · ';

function primaryPart(text: string): string {
  const at = text.indexOf(SECONDARY);
  return at === -1 ? text : text.slice(0, at);
}

/** A cell cut to its column: without its secondary part when that is enough, else with … */
function fitCell(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  const primary = primaryPart(text);
  return displayWidth(primary) <= width ? primary : truncate(text, width);
}

/**
 * Natural widths, then shrink until the row fits the terminal: a second flexible column (an episode title, a note)
 * first; the title only down to FLEX_KEEP, since a title is what a person reads the row for; then the others, widest
 * first, down to their header or their widest primary part. Should that not be enough (long ids, a narrow pane),
 * columns are left out rather than let a row wrap: one dimmed column when that is enough, else the ID column
 * (`lk … --json` and pipes keep it whole), then the dimmed ones from the right; then the title goes down to MIN_FLEX_WIDTH, and the other columns from the right
 * are left out until the row fits. A left-out column has width 0.
 */
export function fitWidths(columns: Column[], headers: string[], rows: string[][], terminalWidth: number): number[] {
  const natural = columns.map((_, i) => Math.max(displayWidth(headers[i]!), ...rows.map((row) => displayWidth(row[i]!))));
  const widths = [...natural];
  const shown = columns.map(() => true);
  const used = () => widths.reduce((sum, w, i) => sum + (shown[i] ? w + GAP : 0), 0) - GAP;
  const excess = () => used() - terminalWidth;
  // A column gives up its secondary parts (" · DONE") before it cuts into a primary value.
  const primaryWidth = (i: number) => Math.max(0, ...rows.map((row) => displayWidth(primaryPart(row[i]!))));
  const floor = (i: number) => Math.min(widths[i]!, Math.max(MIN_FLEX_WIDTH, displayWidth(headers[i]!), columns[i]!.flex ? 0 : primaryWidth(i)));
  const shrink = (i: number, to: number) => {
    if (!shown[i]) return;
    widths[i] = widths[i]! - Math.max(0, Math.min(excess(), widths[i]! - to));
  };
  const drop = (i: number) => {
    if (excess() > 0 && shown.filter(Boolean).length > 1) shown[i] = false;
  };
  const indices = columns.map((_, i) => i);
  const flexible = indices.filter((i) => columns[i]!.flex);
  const title = flexible[0];
  const others = indices.filter((i) => !columns[i]!.flex).sort((a, b) => widths[b]! - widths[a]!);
  for (const i of flexible.slice(1)) shrink(i, floor(i));
  if (title !== undefined) shrink(title, Math.max(FLEX_KEEP, floor(title)));
  for (const i of others) shrink(i, floor(i));
  const fromTheRight = [...indices].reverse().filter((i) => i !== title && i !== 0);
  // One dimmed column whose room is enough is given up before the id (a short id is worth more than a date)…
  const enough = fromTheRight.find((i) => columns[i]!.dim && !columns[i]!.id && widths[i]! + GAP >= excess());
  if (enough !== undefined) drop(enough);
  // …else the id (36 cells of a UUID), then the dimmed columns from the right.
  for (const i of fromTheRight.filter((i) => columns[i]!.id)) drop(i);
  for (const i of fromTheRight.filter((i) => columns[i]!.dim)) drop(i);
  if (title !== undefined) shrink(title, floor(title));
  for (const i of fromTheRight) drop(i);
  // Whatever still does not fit (a single huge column) is cut to the line.
  for (const i of [...indices].reverse()) if (excess() > 0) shrink(i, 1);
  // Room that columns left out or cut to their primary part gave up goes back to the title, then to the other flexible ones.
  for (const i of flexible) if (shown[i]) widths[i] = Math.min(natural[i]!, widths[i]! + Math.max(0, -excess()));
  return widths.map((width, i) => (shown[i] ? width : 0));
}
