import type { ApiReader, ApiResponse, Headers, Query, RequestOptions } from './client.js';
import { DEFAULT_PAGING_CONCURRENCY, PageQueue, type PageFetch } from './page-queue.js';
import type { PageRead } from './shifts.js';
import { CatchUp } from './paging/catch-up.js';
import { emptyPageWithMore, morePastTotal, noMoreBeforeSteadyTotal, type Shortfall } from './paging/ending-short.js';
import { GoingInCircles } from './paging/going-in-circles.js';
import { SeenItems } from './paging/seen-items.js';
import { UnexpectedResponseError } from '../util/errors.js';
import { formatCount } from '../util/units.js';

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
   * For endpoints docs/api.md does not call paginated (calendar, achievements): ask without page or limit, and only if
   * the answer turns out to be an envelope with more, follow it to the end.
   */
  followIfPaged?: boolean | undefined;
  /** `lk api --paginate`: a first body that is no listing at all (GET /v1/me) is handed over whole. */
  raw?: boolean | undefined;
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
  /**
   * Made by paginate from a response for this reader alone: once the reader is done with it, it may empty its items
   * and the body's (output/formats/render.ts letGo). Items a caller passed in (pageOf) are never so marked.
   */
  disposable?: boolean;
}

export const MAX_PAGE_SIZE = 100;
/** The page size the server uses when asked for none (docs/api.md, Paging): the mirror pages its answers the same. */
export const DEFAULT_PAGE_SIZE = 20;

/** docs/api.md, Endpoints, rule 1: a body with `items` and `hasMore` is an envelope. */
export function isEnvelope(body: unknown): body is { items: unknown[]; hasMore: boolean; total?: number } {
  return (
    typeof body === 'object' &&
    body !== null &&
    Array.isArray((body as { items?: unknown }).items) &&
    typeof (body as { hasMore?: unknown }).hasMore === 'boolean'
  );
}

/** A body that calls itself an envelope (it has hasMore) must be a whole one: items an array, total a count. */
function envelopeProblem(body: unknown): string | undefined {
  if (isEnvelope(body)) {
    const total = (body as { total?: unknown }).total;
    return total === undefined || (Number.isSafeInteger(total) && (total as number) >= 0) ? undefined : `total is ${describe(total)}`;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return `got ${describe(body)}`;
  const { items, hasMore } = body as { items?: unknown; hasMore?: unknown };
  if (!Array.isArray(items)) return `items is ${describe(items)}`;
  return `hasMore is ${describe(hasMore)}`;
}

function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  return `${typeof value} ${String(value).slice(0, 20)}`;
}

function unexpected(path: string, page: number | undefined, problem: string): UnexpectedResponseError {
  const where = page === undefined ? path : `${path} (page ${page})`;
  const expected =
    page === undefined ? 'a list of items (an array, or the envelope {items, hasMore, total})' : 'the envelope {items, hasMore, total}';
  return new UnexpectedResponseError(`unexpected response from ${where}: expected ${expected}, ${problem}`);
}

function endedShort({ received, total, why }: Shortfall): UnexpectedResponseError {
  return new UnexpectedResponseError(`the listing ended short: received ${formatCount(received)} of ${formatCount(total)} items (${why})`);
}

type Envelope = { items: unknown[]; hasMore: boolean; total?: number };

/**
 * What the options ask for: which page first, how many per page (undefined: the server's default, DEFAULT_PAGE_SIZE),
 * and whether to follow hasMore. The mirror's answers are paged by the same plan (src/readings/pages.ts).
 */
export function planOf(options: PagingOptions): { follow: boolean; followLater: boolean; limit: number | undefined; first: number } {
  const follow = Boolean(options.all) || options.max !== undefined;
  const followLater = Boolean(options.followIfPaged) && !follow && options.page === undefined;
  let limit = options.limit ?? (follow ? MAX_PAGE_SIZE : undefined);
  if (options.max !== undefined && options.limit === undefined) limit = Math.min(MAX_PAGE_SIZE, Math.max(1, options.max));
  return { follow, followLater, limit, first: options.page ?? 1 };
}

/**
 * Every listing goes through here: one page, or with --all / --max page after page while hasMore is true. Once the
 * first page gives `total`, the next pages are fetched a few at a time and handed over in page order. What to make of
 * a listing that shifts or a server that misbehaves is decided by the policies of paging/: duplicates (SeenItems), a
 * repeated page (GoingInCircles), catch-up (CatchUp) and ending short (ending-short.ts).
 */
export async function* paginate(
  client: ApiReader,
  path: string,
  query: Query,
  options: PagingOptions,
  requestOptions: RequestOptions = {},
): AsyncGenerator<Page> {
  const { follow, followLater, limit, first } = planOf(options);
  let remaining = options.max ?? Number.POSITIVE_INFINITY;
  let received = 0;
  const seen = new SeenItems();
  const circles = new GoingInCircles();
  const reads: PageRead[] = [];
  // Aborted when --max has its items or the reader stops early: pages still in flight are abandoned.
  const cancel = new AbortController();
  const signal = requestOptions.signal ? AbortSignal.any([requestOptions.signal, cancel.signal]) : cancel.signal;

  const fetchPage: PageFetch = (page, demand) => {
    const sendPage = options.page !== undefined || follow || (followLater && page > 1);
    return client.get(path, { ...query, page: sendPage ? page : undefined, limit }, { ...requestOptions, signal, demand, deferParse: true });
  };
  /** The page as the reader gets it: the items not seen before, up to --max. */
  const pageFrom = (response: ApiResponse, page: number, body: Envelope, catchUp = false): Page => {
    const fresh = seen.fresh(body.items);
    const problem = catchUp ? undefined : circles.problem(page, body.items, fresh.length);
    if (problem) throw new UnexpectedResponseError(`unexpected response from ${path}: ${problem}`);
    const items = fresh.slice(0, remaining);
    remaining -= items.length;
    received += items.length;
    const total = typeof body.total === 'number' ? body.total : undefined;
    if (total !== undefined) reads.push({ page, count: body.items.length, total });
    return { items, page, hasMore: body.hasMore, total, body, status: response.status, headers: response.headers, disposable: true };
  };

  try {
    const response = await fetchPage(first, () => 1);
    const body = response.json;
    if (!isEnvelope(body) || envelopeProblem(body)) {
      yield plainPage(path, response, first, remaining, options.raw);
      return;
    }
    const firstPage = pageFrom(response, first, body);
    // What the loop needs of the page just handed over, not the page: a page held while the next one is awaited
    // outlives collections of the young generation, and the heap then grows with the listing.
    let last = summaryOf(firstPage);
    yield firstPage;
    if (!(follow || followLater)) return;

    // A server may serve fewer than the limit asked for (its own cap): its page size is what the pages hold.
    const served = last.served;
    const pageSize = limit === undefined ? served : last.hasMore && served > 0 && served < limit ? served : limit;
    const base = last.total;
    const lastPageOf = (total: number | undefined) => (total === undefined || pageSize === 0 ? 0 : Math.ceil(total / pageSize));
    // --max: no page beyond those it still needs (more only if de-duplication leaves it short).
    const maxPage = first + Math.ceil(remaining / Math.max(1, pageSize));
    // Without a total the number of pages is unknown: one at a time, following hasMore.
    const queue = new PageQueue(fetchPage, base === undefined ? 1 : (client.pagingConcurrency ?? DEFAULT_PAGING_CONCURRENCY), first);
    let pagesRead = 1;
    let largestTotal = base ?? 0;
    while (last.hasMore && remaining > 0) {
      const shortfall =
        emptyPageWithMore(last.page, last.served, received, largestTotal) ??
        (base === undefined ? undefined : morePastTotal(last.page, pageSize, received, largestTotal));
      if (shortfall) throw endedShort(shortfall);
      const page = last.page + 1;
      queue.planUpTo(Math.max(page, Math.min(maxPage, lastPageOf(last.total))));
      const next = await queue.take(page);
      const problem = envelopeProblem(next.json);
      if (problem) throw unexpected(path, page, problem);
      const taken = pageFrom(next, page, next.json as Envelope);
      last = summaryOf(taken);
      largestTotal = Math.max(largestTotal, last.total ?? 0);
      pagesRead += 1;
      yield taken;
    }
    if (last.hasMore || remaining <= 0) return;
    if (base !== undefined && reads.length === pagesRead) {
      const catchUp = new CatchUp(reads, pageSize, first, base);
      for (let page = catchUp.nextPage(); page !== undefined && remaining > 0; page = catchUp.nextPage()) {
        const again = await fetchPage(page, () => 1);
        if (!isEnvelope(again.json) || again.json.items.length === 0) break;
        // The listing as a whole is complete: this page only fills in what shifted past the others.
        yield { ...pageFrom(again, page, again.json, true), hasMore: false };
      }
    }
    const shortfall = noMoreBeforeSteadyTotal({ reads, duplicates: seen.dropped, first, pageSize, max: options.max, received });
    if (shortfall) throw endedShort(shortfall);
  } finally {
    cancel.abort();
  }
}

/** What paging goes on from: the page's number, whether more follow, the total it announced, how many items it held. */
function summaryOf(page: Page): { page: number; hasMore: boolean; total: number | undefined; served: number } {
  return { page: page.page, hasMore: page.hasMore, total: page.total, served: (page.body as Envelope).items.length };
}

/** A first page that is no envelope: a plain list is the one page there is (`lk api --paginate` takes any body). */
function plainPage(path: string, response: ApiResponse, first: number, remaining: number, raw: boolean | undefined): Page {
  const body = response.json;
  const claimsEnvelope = typeof body === 'object' && body !== null && Object.hasOwn(body, 'hasMore');
  const listLike = Array.isArray(body) || Array.isArray((body as { items?: unknown } | null)?.items);
  if (claimsEnvelope || (!listLike && !raw)) throw unexpected(path, undefined, envelopeProblem(body)!);
  const items = listLike ? itemsOfPlainBody(body) : [];
  return {
    items: items.slice(0, remaining),
    page: first,
    hasMore: false,
    total: items.length,
    body,
    status: response.status,
    headers: response.headers,
  };
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
