import { DEFAULT_PAGE_SIZE, planOf, type Page, type PagingOptions } from '../api/paginate.js';
import type { Listing as MirrorListing, Window } from '../mirror/read.js';

/** A window of a listing read from the mirror: its items in the server's order, and how many the whole listing holds. */
export type WindowReader = (window: Window) => MirrorListing;

/** The window of a whole listing. */
export const EVERYTHING: Window = { offset: 0, limit: -1 };

/** A whole list as a window reader (a table the mirror holds in a few dozen rows: lists, reviews, the calendar). */
export function windowOf(items: unknown[]): WindowReader {
  return ({ offset, limit }) => ({ items: items.slice(offset, limit < 0 ? undefined : offset + limit), total: items.length });
}

/**
 * A listing of the mirror as the pages the server would have sent, by the plan the API's paging follows (api/paginate.ts
 * planOf, DEFAULT_PAGE_SIZE): --page, --limit, --all, --max; "Showing N of TOTAL". Every page it follows comes from one
 * window, read as the pages are written: linear in what is shown.
 */
export async function* pagesOf(read: WindowReader, paging: PagingOptions): AsyncGenerator<Page> {
  const plan = planOf(paging);
  const follow = plan.follow;
  const limit = plan.limit ?? DEFAULT_PAGE_SIZE;
  let page = plan.first;
  let remaining = paging.max ?? Number.POSITIVE_INFINITY;
  const start = (page - 1) * limit;
  // Following, the pages up to --max (whole pages, as the server serves them); else the one page asked for.
  const window = follow ? { offset: start, limit: Number.isFinite(remaining) ? Math.ceil(remaining / limit) * limit : -1 } : { offset: start, limit };
  const { items, total } = read(window);
  const iterator = items[Symbol.iterator]();
  let next = iterator.next();
  for (;;) {
    const served: unknown[] = [];
    while (served.length < limit && !next.done) {
      served.push(next.value);
      next = iterator.next();
    }
    const shown = served.slice(0, remaining);
    remaining -= shown.length;
    const hasMore = (page - 1) * limit + limit < total;
    yield { items: shown, page, hasMore, total, body: { items: served, hasMore, total }, status: 200, headers: {} };
    if (!follow || !hasMore || remaining <= 0 || next.done) return;
    page += 1;
  }
}
