import { accountName } from '../../api/account.js';
import type { ApiReader, ApiResponse, Query, RequestOptions } from '../../api/client.js';
import { pathOf } from '../../api/endpoints.js';
import { paginate, type Page, type PagingOptions } from '../../api/paginate.js';
import { ApiError, LkError } from '../../util/errors.js';
import { isObject } from '../../util/json-value.js';
import { text } from '../../items/values.js';
import type { ExportableArea } from './plan.js';

/** Where the items read go (the mirror's writer): one call per item, in the server's order. */
export interface ItemSink {
  entry(entry: Record<string, unknown>): void;
  /** A dated event, in the order of the whole history. */
  event(event: Record<string, unknown>): void;
  /** An event without a date, read from its entry's own history (it is in no other listing). */
  undatedEvent(entryId: string, event: Record<string, unknown>): void;
  list(list: Record<string, unknown>, items: unknown[]): void;
  review(review: unknown): void;
  achievement(achievement: unknown): void;
  notification(notification: unknown): void;
  calendarItem(item: unknown): void;
  profile(profile: Record<string, unknown>): void;
  stats(summary: unknown): void;
}

/** The client as a sync uses it: every GET counted, for sync_runs.requests and the closing line. */
export class CountedClient implements ApiReader {
  requests = 0;
  readonly accounts: ApiReader['accounts'];
  readonly pagingConcurrency: ApiReader['pagingConcurrency'];

  constructor(private readonly client: ApiReader) {
    this.accounts = client.accounts;
    this.pagingConcurrency = client.pagingConcurrency;
  }

  get(path: string, query?: Query, options?: RequestOptions): Promise<ApiResponse> {
    this.requests += 1;
    return this.client.get(path, query, options);
  }
}

/** Entries whose own history is read at once. */
const HISTORY_CONCURRENCY = 4;
/** Reads of a newest-first listing that moved while it was read, before the sync gives up (stablePages). */
const SHIFT_TRIES = 4;

/** The reads of a sync from the API's endpoints (the export has its own module, export.ts). */
export class EndpointReads {
  constructor(
    private readonly client: ApiReader,
    private readonly signal: AbortSignal | undefined,
  ) {}

  /** Whose key this is (remembered, else GET /v1/me); undefined when the server will not say. */
  async accountName(key: string): Promise<string | undefined> {
    const remembered = this.client.accounts?.lookup(key);
    if (remembered) return remembered;
    try {
      return accountName((await this.client.get(pathOf('me'), {}, { signal: this.signal })).json);
    } catch (error) {
      if (error instanceof ApiError && error.status !== 401) return undefined;
      throw error;
    }
  }

  /** The library, then every dated event; undated ones appear only in each entry's own history. */
  async libraryAndHistory(sink: ItemSink): Promise<void> {
    await this.library(sink);
    await this.each(pathOf('history'), (item) => {
      if (isObject(item)) sink.event(item);
    });
  }

  /** Every page of the library. */
  async library(sink: Pick<ItemSink, 'entry'>): Promise<void> {
    await this.each(pathOf('library'), (item) => {
      if (isObject(item) && text(item.id) !== null) sink.entry(item);
    });
  }

  /** GET /v1/library/{id}/history of each entry named, a few at a time: its events without a date. */
  async undatedEvents(ids: readonly string[], sink: Pick<ItemSink, 'undatedEvent'>): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < ids.length) {
        const id = ids[next++]!;
        const events = await this.undatedOf(id);
        for (const event of events ?? []) sink.undatedEvent(id, event);
      }
    };
    await Promise.all(Array.from({ length: Math.min(HISTORY_CONCURRENCY, ids.length) }, worker));
  }

  /** One entry's events without a date (its own history); undefined when it was removed while we read. */
  private async undatedOf(id: string): Promise<Record<string, unknown>[] | undefined> {
    const events: Record<string, unknown>[] = [];
    try {
      await this.each(pathOf('entryHistory', id), (event) => {
        if (isObject(event) && event.date === null) events.push(event);
      });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return undefined;
      throw error;
    }
    return events;
  }

  /**
   * GET /v1/history from a moment on: the dated events since, newest first, page after page in order; read again
   * from the first page when the listing moved while it was read (stablePages).
   */
  async historySince(from: string, limit: number): Promise<Record<string, unknown>[]> {
    const { items } = await this.stablePages(pathOf('history'), { from }, limit, () => false);
    return items;
  }

  /**
   * The entries added since the last sync: GET /v1/library in `query`'s order (added, newest first), one page at a
   * time so that no page is asked past the first entry the mirror knows; the new ones, newest first, with the
   * library's total as the server gave it. `reachedEnd`: every page was read and none held a known entry.
   */
  async addedSince(
    query: Query & { limit: number },
    known: (id: string) => boolean,
  ): Promise<{ added: Record<string, unknown>[]; total: number | undefined; reachedEnd: boolean }> {
    const { limit, ...rest } = query;
    const read = await this.stablePages(pathOf('library'), rest, limit, (item) => text(item.id) !== null && known(text(item.id)!));
    return { added: read.items.filter((item) => text(item.id) !== null), total: read.total, reachedEnd: !read.stopped };
  }

  /**
   * A newest-first listing read page after page until `stop` says an item is one already held (that item and the
   * rest are not taken) or the last page. An item removed or added at the front while we page moves every later one
   * by a place, so that one would be stepped over, or read twice: when a page's `total` is not the first page's, the
   * listing is read again from the first page (up to SHIFT_TRIES times; then the reading fails, never short).
   */
  private async stablePages(
    path: string,
    query: Query,
    limit: number,
    stop: (item: Record<string, unknown>) => boolean,
  ): Promise<{ items: Record<string, unknown>[]; total: number | undefined; stopped: boolean }> {
    for (let attempt = 1; ; attempt++) {
      const items: Record<string, unknown>[] = [];
      let first: number | undefined;
      let moved = false;
      let stopped = false;
      for (let page = 1; !stopped && !moved; page++) {
        const [read] = await collect(this.pages(path, { page, limit }, query));
        if (page === 1) first = read?.total;
        else if (read?.total !== first) {
          moved = true;
          break;
        }
        for (const item of read?.items ?? []) {
          if (!isObject(item)) continue;
          if (stop(item)) {
            stopped = true;
            break;
          }
          items.push(item);
        }
        if (!read?.hasMore) break;
      }
      if (!moved) return { items, total: first, stopped };
      if (attempt === SHIFT_TRIES)
        throw new LkError(`${path} kept changing while it was read (${SHIFT_TRIES} tries): nothing of this sync was kept; try again later`, 1);
    }
  }

  /** GET /v1/library/{id}: one entry as it is now; undefined when it was removed since. */
  async entry(id: string): Promise<Record<string, unknown> | undefined> {
    try {
      const entry = (await this.client.get(pathOf('entry', id), {}, { signal: this.signal })).json;
      return isObject(entry) && text(entry.id) !== null ? entry : undefined;
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return undefined;
      throw error;
    }
  }

  /** One collection an export may carry, from its endpoints. */
  async exportable(area: ExportableArea, sink: ItemSink): Promise<void> {
    switch (area) {
      case 'lists':
        for await (const page of this.pages(pathOf('lists'))) {
          for (const list of page.items) {
            if (!isObject(list) || text(list.id) === null) continue;
            const detail = (await this.client.get(pathOf('list', text(list.id)!), {}, { signal: this.signal })).json;
            sink.list(list, isObject(detail) && Array.isArray(detail.items) ? detail.items : []);
          }
        }
        return;
      case 'reviews':
        return this.each(pathOf('reviews'), (item) => sink.review(item));
      case 'achievements':
        return this.each(pathOf('achievements'), (item) => sink.achievement(item));
      case 'notifications':
        return this.each(pathOf('notifications'), (item) => sink.notification(item));
      case 'profile': {
        const profile = (await this.client.get(pathOf('profile'), {}, { signal: this.signal })).json;
        if (isObject(profile)) sink.profile(profile);
        return;
      }
    }
  }

  /** The calendar: docs/api.md does not call it paginated; an answer that turns out to be an envelope is followed. */
  async calendar(sink: ItemSink): Promise<void> {
    await this.each(pathOf('calendar'), (item) => sink.calendarItem(item), { followIfPaged: true });
  }

  async stats(sink: ItemSink): Promise<void> {
    sink.stats((await this.client.get(pathOf('stats'), {}, { signal: this.signal })).json);
  }

  /** Every item of a listing, page after page, handed over as each page arrives. */
  private async each(path: string, visit: (item: unknown) => void, paging: PagingOptions = { all: true }, query: Query = {}): Promise<void> {
    for await (const page of this.pages(path, paging, query)) for (const item of page.items) visit(item);
  }

  private pages(path: string, paging: PagingOptions = { all: true }, query: Query = {}): AsyncGenerator<Page> {
    return paginate(this.client, path, query, paging, { signal: this.signal });
  }
}

/** The pages of a listing read one at a time (a single page: paginate asks no other). */
async function collect(pages: AsyncGenerator<Page>): Promise<Page[]> {
  const read: Page[] = [];
  for await (const page of pages) read.push(page);
  return read;
}
