import type { Page } from '../../api/paginate.js';
import { listingProgress } from '../terminal/progress.js';
import type { View } from './view.js';
import { formatterFor } from './formatters.js';
import { formatCount } from '../../util/units.js';

import { writeValue } from './formatters.js';
import { fieldPaths, unmatchedFields } from './fields.js';
import { sanitizeText } from '../terminal/sanitize.js';
import type { OutputOptions } from './writer.js';

/** One resource in the chosen format; `--fields help` lists its paths, and a `--fields` path it lacks is warned about. */
export async function renderSingle(value: unknown, view: View | undefined, options: OutputOptions): Promise<void> {
  if (options.fieldsHelp) return writeFieldPaths([value], view, options);
  warnUnmatchedFields([value], view, options, 'in the response');
  await writeValue(value, view, options);
}

/** `--fields help`: the paths one per line on stdout (for scripts and completion), how to use them on a terminal's stderr. */
async function writeFieldPaths(items: unknown[], view: View | undefined, options: OutputOptions): Promise<void> {
  const paths = fieldPaths(items, view?.fields ?? []);
  await options.io.write(paths.map((path) => `${sanitizeText(path)}\n`).join(''));
  if (options.io.mayNotify) {
    options.io.info(
      items.length === 0 ? 'No items to read field paths from.' : 'Field paths for --fields (from the first page), e.g. --fields id,work.title',
    );
  }
}

/** A `--fields` path that names nothing gives an empty column: say so, with the paths meant most likely. */
function warnUnmatchedFields(items: unknown[], view: View | undefined, options: OutputOptions, where: string): void {
  if (!options.fields) return;
  for (const { field, closest } of unmatchedFields(options.fields, items, view?.fields ?? [])) {
    const guess = closest.length > 0 ? `did you mean ${closest.join(', ')}?` : 'see --fields help for the paths there are';
    options.io.warn(sanitizeText(`lk: warning: --fields ${field} matches nothing ${where}; ${guess}`));
  }
}

export interface ListingHints {
  /** The command takes --page/--all, so the "Showing N of TOTAL" notice can suggest them. */
  paged: boolean;
}

/**
 * Writes a listing page by page, then tells a person at a terminal what they are not seeing ("Showing 20 of 1,234")
 * or that there was nothing. Scripts get only the data.
 */
export async function renderListing(pages: AsyncIterable<Page>, view: View, options: OutputOptions, hints: ListingHints): Promise<void> {
  if (options.fieldsHelp) {
    // The first page is enough to show what items carry; leaving the loop stops the paging.
    for await (const page of pages) return writeFieldPaths(page.items, view, options);
    return writeFieldPaths([], view, options);
  }
  const formatter = await formatterFor(options.format);
  const writer = formatter.listing(view, options);
  const { io } = options;
  const [one, many] = view.noun;
  // On a terminal's stderr while --all pages: "312 / 4,210 entries", cleared before anything below is said.
  const progress = listingProgress(io, many);
  let shown = 0;
  let last: PageEnd | undefined;
  let followed = false;
  try {
    try {
      for await (const page of pages) {
        if (last) followed = true;
        last = endOf(page);
        if (shown === 0 && page.items.length > 0) warnUnmatchedFields(page.items, view, options, 'in the first page');
        shown += page.items.length;
        await writer.write(page.items);
        progress.page(shown, page.total, page.hasMore);
        letGo(page);
      }
    } finally {
      progress.end();
    }
  } catch (error) {
    writer.abort?.();
    throw error;
  }
  await writer.end();
  if (shown === 0) {
    if (io.mayNotify) io.info(`No ${many}.`);
    return;
  }
  if (!last) return;
  if (followed && !last.hasMore && last.total !== undefined && shown !== last.total) {
    io.info(
      `lk: received ${formatCount(shown)} ${many} where the server announced ${formatCount(last.total)}: ${many} were added or removed while paging`,
    );
  }
  if (last.hasMore && io.mayNotify && hints.paged) {
    const total = last.total !== undefined ? ` of ${formatCount(last.total)}` : '';
    io.info(footer(`${formatCount(shown)}${total} ${shown === 1 ? one : many}`, last, one, io.columns));
  }
}

/** What the closing lines need to know of a listing's last page. */
interface PageEnd {
  page: number;
  hasMore: boolean;
  total: number | undefined;
  /** Items shown of it (fewer than served when --max stopped inside it). */
  shown: number;
  /** Items the server served in it. */
  served: number;
}

function endOf(page: Page): PageEnd {
  const served = (page.body as { items?: unknown } | null)?.items;
  return { page: page.page, hasMore: page.hasMore, total: page.total, shown: page.items.length, served: Array.isArray(served) ? served.length : 0 };
}

/**
 * A page written is let go of its items: while the next page is awaited, this loop and the paging generator still
 * hold the last one, and a page held that long outlives collections of V8's young generation, whose growth then makes
 * the process's memory grow with the listing (246 MB at 100,000 entries on Node 24, 131 MB once let go).
 */
function letGo(page: Page): void {
  if (!page.disposable) return;
  page.items.length = 0;
  const served = (page.body as { items?: unknown } | null)?.items;
  if (Array.isArray(served)) served.length = 0;
}

/**
 * "Showing 20 of 1,234 entries — …" on one line of the terminal: the full wording when it fits, shorter ones when it
 * does not, so that it never wraps (at 40 columns: "20 of 1,234 entries · --page 2 · --all").
 */
export function footer(count: string, last: PageEnd, one: string, width: number): string {
  const next = nextPage(last);
  const candidates = [
    `Showing ${count} — ${readOn(last, one)}`,
    next === 'max'
      ? `Showing ${count} — --all, or a larger --max`
      : next
        ? `Showing ${count} — next: ${next}, all: --all`
        : `Showing ${count} — all: --all`,
    next === 'max' ? `${count} · --all or a larger --max` : next ? `${count} · ${next} · --all` : `${count} · --all`,
    `Showing ${count}`,
  ];
  // lk's own words and digits, one cell a character: no need to load string-width (~80 ms) to measure them.
  return candidates.find((line) => [...line].length <= width) ?? candidates.at(-1)!;
}

/** The flags that show the next page ("--limit 5 --page 3"), 'max' when --max stopped inside a page. */
function nextPage(last: PageEnd): string | 'max' | undefined {
  const size = last.served;
  if (size === 0) return undefined;
  if (last.shown < size) return 'max';
  return `${size === DEFAULT_PAGE_SIZE ? '' : `--limit ${size} `}--page ${last.page + 1}`;
}

/** The API's page size (docs/api.md) when a request names no limit. */
const DEFAULT_PAGE_SIZE = 20;

/**
 * How to read on from where a listing stopped: "--all for every entry, --limit 5 --page 3 for the next". The page
 * size is the one the server just used (a full page, since more follow), named unless it is the default, so that
 * the next page starts right after the last item shown. When --max stopped inside a page, no page starts there.
 */
export function readOn(last: PageEnd, one: string): string {
  const all = `--all for every ${one}`;
  const size = last.served;
  if (size === 0) return all;
  if (last.shown < size) return `${all}, or a larger --max`;
  const limit = size === DEFAULT_PAGE_SIZE ? '' : `--limit ${size} `;
  return `${all}, ${limit}--page ${last.page + 1} for the next`;
}

/** A resource of no fixed shape (stats, profile): sections on a terminal, the exact data otherwise. */
export async function renderSections(value: unknown, options: OutputOptions): Promise<void> {
  if (options.fieldsHelp) return writeFieldPaths([value], undefined, options);
  warnUnmatchedFields([value], undefined, options, 'in the response');
  // The exact data, unless on a terminal: without loading the section layout, which measures widths with string-width.
  if (options.format !== 'table') return writeValue(value, undefined, options);
  const sections = await import('./sections.js');
  await sections.writeSections(value, options);
}
