import type { ApiClient, ApiResponse, Headers, Query, RequestOptions } from './client.js';
import { DEFAULT_PAGING_CONCURRENCY, PageQueue, type PageFetch } from './page-queue.js';
import { pageNowHolding, uncoveredSpans, type PageRead } from './shifts.js';

export interface PagingOptions {
  /** First page to read (from 1). */
  page?: number | undefined;
  /** Items per page (1–100); --all uses 100 unless told otherwise. */
  limit?: number | undefined;
  /** Follow hasMore to the end. */
  all?: boolean | undefined;
  /** Stop after this many items (follows pages as needed). */
  max?: number | undefined;
  /**
   * For endpoints SPEC.md does not call paginated (calendar, achievements): ask without page or limit, and only if
   * the answer turns out to be an envelope with more, follow it to the end.
   */
  followIfPaged?: boolean | undefined;
}

export interface Page {
  items: unknown[];
  /** The page number this came from. */
  page: number;
  hasMore: boolean;
  total: number | undefined;
  /** The whole body, for responses that are not envelopes. */
  body: unknown;
  /** Status and headers of the response (`lk api --include`). */
  status: number;
  headers: Headers;
}

export const MAX_PAGE_SIZE = 100;

/** SPEC.md §2 / CLI.md: a body with `items` and `hasMore` is an envelope. */
export function isEnvelope(body: unknown): body is { items: unknown[]; hasMore: boolean; total?: number } {
  return (
    typeof body === 'object' &&
    body !== null &&
    Array.isArray((body as { items?: unknown }).items) &&
    typeof (body as { hasMore?: unknown }).hasMore === 'boolean'
  );
}

/** Catch-up reads after the last page, at most: a listing that keeps shifting faster than that is reported, not chased. */
const MAX_CATCH_UP_PAGES = 10;

type Envelope = { items: unknown[]; hasMore: boolean; total?: number };

/**
 * Every listing goes through here: one page, or with --all / --max page after page while hasMore is true. Once the
 * first page gives `total`, the next pages are fetched a few at a time and handed over in page order.
 * Items are de-duplicated by id, since a newest-first listing shifts when the account adds something mid-way; pages
 * answered out of order can step over an item then, so the spans no page covered are read again at the end.
 */
export async function* paginate(
  client: ApiClient,
  path: string,
  query: Query,
  options: PagingOptions,
  requestOptions: RequestOptions = {},
): AsyncGenerator<Page> {
  const follow = Boolean(options.all) || options.max !== undefined;
  const followLater = Boolean(options.followIfPaged) && !follow && options.page === undefined;
  let limit = options.limit ?? (follow ? MAX_PAGE_SIZE : undefined);
  if (options.max !== undefined && options.limit === undefined) limit = Math.min(MAX_PAGE_SIZE, Math.max(1, options.max));
  const first = options.page ?? 1;
  let remaining = options.max ?? Number.POSITIVE_INFINITY;
  const seen = new Set<unknown>();
  const reads: PageRead[] = [];
  // Aborted when --max has its items or the reader stops early: pages still in flight are abandoned.
  const cancel = new AbortController();
  const signal = requestOptions.signal ? AbortSignal.any([requestOptions.signal, cancel.signal]) : cancel.signal;

  const fetchPage: PageFetch = (page, demand) => {
    const sendPage = options.page !== undefined || follow || (followLater && page > 1);
    return client.get(path, { ...query, page: sendPage ? page : undefined, limit }, { ...requestOptions, signal, demand });
  };
  /** The page as the reader gets it: the items not seen before, up to --max. */
  const pageFrom = (response: ApiResponse, page: number, body: Envelope): Page => {
    const fresh = body.items.filter((item) => {
      const id = (item as { id?: unknown } | null)?.id;
      if (id === undefined || id === null) return true;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    });
    const items = fresh.slice(0, remaining);
    remaining -= items.length;
    const total = typeof body.total === 'number' ? body.total : undefined;
    if (total !== undefined) reads.push({ page, count: body.items.length, total });
    return { items, page, hasMore: body.hasMore, total, body, status: response.status, headers: response.headers };
  };

  try {
    const response = await fetchPage(first, () => 1);
    const body = response.json;
    if (!isEnvelope(body)) {
      const items = itemsOfPlainBody(body);
      yield { items: items.slice(0, remaining), page: first, hasMore: false, total: items.length, body, status: response.status, headers: response.headers };
      return;
    }
    let last = pageFrom(response, first, body);
    yield last;
    if (!(follow || followLater)) return;

    const pageSize = limit ?? body.items.length;
    const base = last.total;
    const lastPageOf = (total: number | undefined) => (total === undefined ? 0 : Math.ceil(total / pageSize));
    // --max: no page beyond those it still needs (more only if de-duplication leaves it short).
    const maxPage = first + Math.ceil(remaining / pageSize);
    // Without a total the number of pages is unknown: one at a time, following hasMore.
    const queue = new PageQueue(fetchPage, base === undefined ? 1 : (client.pagingConcurrency ?? DEFAULT_PAGING_CONCURRENCY), first);
    let pagesRead = 1;
    let lastCount = body.items.length;
    for (let page = first + 1; last.hasMore && remaining > 0 && lastCount > 0; page++) {
      queue.planUpTo(Math.max(page, Math.min(maxPage, lastPageOf(last.total))));
      const next = await queue.take(page);
      if (!isEnvelope(next.json)) return;
      last = pageFrom(next, page, next.json);
      lastCount = next.json.items.length;
      pagesRead += 1;
      yield last;
    }
    if (last.hasMore || remaining <= 0 || base === undefined || reads.length !== pagesRead) return;

    for (let extra = 0; extra < MAX_CATCH_UP_PAGES && remaining > 0; extra++) {
      const gap = uncoveredSpans(reads, pageSize, (first - 1) * pageSize, base)[0];
      if (!gap) return;
      const page = pageNowHolding(gap[0], pageSize, base, Math.max(...reads.map((read) => read.total)));
      const again = await fetchPage(page, () => 1);
      if (!isEnvelope(again.json) || again.json.items.length === 0) return;
      // The listing as a whole is complete: this page only fills in what shifted past the others.
      yield { ...pageFrom(again, page, again.json), hasMore: false };
    }
  } finally {
    cancel.abort();
  }
}

/** The items of a body that is not an envelope: a plain array, or `{items: [...]}` without hasMore (the calendar). */
export function itemsOfPlainBody(body: unknown): unknown[] {
  if (Array.isArray(body)) return body;
  const items = (body as { items?: unknown } | null)?.items;
  return Array.isArray(items) ? items : [];
}

/** Items already in hand (a list's items, local settings) as the one page a listing renders. */
export async function* pageOf(items: unknown[]): AsyncGenerator<Page> {
  yield { items, page: 1, hasMore: false, total: items.length, body: undefined, status: 200, headers: {} };
}
