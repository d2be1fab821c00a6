import type { ApiResponse } from './client.js';

/** Pages in flight at once with --all (LK_PAGING_CONCURRENCY overrides it: 1 pages one at a time, for benchmarks). */
export const DEFAULT_PAGING_CONCURRENCY = 4;

export function pagingConcurrency(env: NodeJS.ProcessEnv): number {
  const value = Number(env.LK_PAGING_CONCURRENCY);
  return Number.isInteger(value) && value >= 1 && value <= 16 ? value : DEFAULT_PAGING_CONCURRENCY;
}

type Settled = { response: ApiResponse } | { error: unknown };

/** Fetches one page; `demand` tells the pacer how many requests the listing still has to make, this one included. */
export type PageFetch = (page: number, demand: () => number) => Promise<ApiResponse>;

/**
 * Fetches pages with a few requests in flight and hands them over in page order. Pages run ahead of the reader by at
 * most twice the concurrency, so a slow reader (a full pipe) does not make the buffer grow.
 */
export class PageQueue {
  private readonly pending = new Map<number, Promise<Settled>>();
  private nextToStart: number;
  private planned: number;
  private taken: number;
  private inFlight = 0;
  private failed = false;

  constructor(
    private readonly fetch: PageFetch,
    private readonly concurrency: number,
    /** The last page already read; fetching starts after it. */
    after: number,
  ) {
    this.nextToStart = after + 1;
    this.planned = after;
    this.taken = after;
  }

  planUpTo(lastPage: number): void {
    this.planned = Math.max(this.planned, lastPage);
    this.fill();
  }

  /** The next page in order (started now if it is not yet); rejects with that page's error. */
  async take(page: number): Promise<ApiResponse> {
    if (!this.pending.has(page)) this.start(page);
    const settled = await this.pending.get(page)!;
    this.pending.delete(page);
    this.taken = Math.max(this.taken, page);
    this.fill();
    if ('error' in settled) throw settled.error;
    return settled.response;
  }

  private fill(): void {
    while (
      !this.failed &&
      this.inFlight < this.concurrency &&
      this.nextToStart <= this.planned &&
      this.nextToStart <= this.taken + 2 * this.concurrency
    ) {
      this.start(this.nextToStart);
    }
  }

  private start(page: number): void {
    this.nextToStart = Math.max(this.nextToStart, page + 1);
    this.inFlight += 1;
    const settled = this.fetch(page, () => Math.max(1, this.planned - page + 1)).then(
      (response): Settled => ({ response }),
      (error: unknown): Settled => {
        // No new pages after a failure: the reader will stop at this one.
        this.failed = true;
        return { error };
      },
    );
    this.pending.set(
      page,
      settled.finally(() => {
        this.inFlight -= 1;
        this.fill();
      }),
    );
  }
}
