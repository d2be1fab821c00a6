import { pageNowHolding, uncoveredSpans, type PageRead } from '../shifts.js';

/** Catch-up reads after the last page, at most: a listing that keeps shifting faster than that is reported, not chased. */
export const MAX_CATCH_UP_PAGES = 10;

/**
 * Policy: catch-up. Pages answered out of order while the listing grows can step over an item (de-duplication only
 * handles the other way round): after the last page, the pages now holding what no page covered are read again.
 * Only when every page read announced a total, since positions are worked out from it.
 */
export class CatchUp {
  private readsLeft = MAX_CATCH_UP_PAGES;

  constructor(
    /** Every page read so far with its total (catch-up reads are added as they come). */
    private readonly reads: readonly PageRead[],
    private readonly pageSize: number,
    /** The first page asked for. */
    private readonly first: number,
    /** The total the first page announced. */
    private readonly base: number,
  ) {}

  /** The page to read again next, or undefined when nothing is left uncovered or the reads allowed are spent. */
  nextPage(): number | undefined {
    if (this.readsLeft <= 0) return undefined;
    const gap = uncoveredSpans(this.reads, this.pageSize, (this.first - 1) * this.pageSize, this.base)[0];
    if (!gap) return undefined;
    this.readsLeft -= 1;
    return pageNowHolding(gap[0], this.pageSize, this.base, Math.max(...this.reads.map((read) => read.total)));
  }
}
