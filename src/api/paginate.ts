import type { ApiClient, Query, RequestOptions } from './client.js';

export interface PagingOptions {
  /** First page to read (from 1). */
  page?: number | undefined;
  /** Items per page (1–100); --all uses 100 unless told otherwise. */
  limit?: number | undefined;
  /** Follow hasMore to the end. */
  all?: boolean | undefined;
  /** Stop after this many items (follows pages as needed). */
  max?: number | undefined;
}

export interface Page {
  items: unknown[];
  /** The page number this came from. */
  page: number;
  hasMore: boolean;
  total: number | undefined;
  /** The whole body, for responses that are not envelopes. */
  body: unknown;
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

/**
 * Every listing goes through here: one page, or with --all / --max page after page while hasMore is true.
 * Items are de-duplicated by id, since a newest-first listing shifts when the account adds something mid-way.
 */
export async function* paginate(
  client: ApiClient,
  path: string,
  query: Query,
  options: PagingOptions,
  requestOptions: RequestOptions = {},
): AsyncGenerator<Page> {
  const follow = Boolean(options.all) || options.max !== undefined;
  let limit = options.limit ?? (follow ? MAX_PAGE_SIZE : undefined);
  if (options.max !== undefined && options.limit === undefined) limit = Math.min(MAX_PAGE_SIZE, Math.max(1, options.max));
  let page = options.page ?? 1;
  let remaining = options.max ?? Number.POSITIVE_INFINITY;
  const seen = new Set<unknown>();
  for (;;) {
    const response = await client.get(path, { ...query, page: options.page !== undefined || follow ? page : undefined, limit }, requestOptions);
    const body = response.json;
    if (!isEnvelope(body)) {
      const items = Array.isArray(body) ? body : [];
      yield { items: items.slice(0, remaining), page, hasMore: false, total: items.length, body };
      return;
    }
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
    yield { items, page, hasMore: body.hasMore, total, body };
    if (!follow || !body.hasMore || remaining <= 0 || body.items.length === 0) return;
    page += 1;
  }
}
