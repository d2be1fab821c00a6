import type { PageRead } from '../shifts.js';

/** Pages read past the last one the largest announced total needs, the last of them still announcing more. */
export const PAGES_PAST_TOTAL = 2;

/** A listing that ended before what the server announced: how many items came, of how many, and why it stopped. */
export interface Shortfall {
  received: number;
  total: number;
  why: string;
}

/**
 * Policy: ending short, in three rules. A server that says "more" and sends nothing, or keeps saying "more" past its
 * own total, or says "no more" before a total it never changed, has not sent the whole listing: lk says so rather than
 * ending quietly (exit 1) or following it forever.
 */

/** hasMore: true on a page with no items. */
export function emptyPageWithMore(page: number, items: number, received: number, largestTotal: number): Shortfall | undefined {
  if (items > 0) return undefined;
  return { received, total: Math.max(largestTotal, received), why: `the server announced more, then sent an empty page ${page}` };
}

/** hasMore still true on `page`, PAGES_PAST_TOTAL pages past the last one the largest total needs. */
export function morePastTotal(page: number, pageSize: number, received: number, largestTotal: number): Shortfall | undefined {
  const lastPage = pageSize === 0 ? 0 : Math.ceil(largestTotal / pageSize);
  if (page - lastPage < PAGES_PAST_TOTAL) return undefined;
  return { received, total: largestTotal, why: `the server still announced more at page ${page}, past its total` };
}

export interface Ending {
  reads: readonly PageRead[];
  /** Items dropped as duplicates: a listing that shifted explains a count short of its total. */
  duplicates: number;
  first: number;
  pageSize: number;
  max: number | undefined;
  received: number;
}

/** hasMore: false before a total that never changed, with no shift to explain it (only from the first page on). */
export function noMoreBeforeSteadyTotal({ reads, duplicates, first, pageSize, max, received }: Ending): Shortfall | undefined {
  const steady = duplicates === 0 && reads.length > 0 && reads.every((read) => read.total === reads[0]!.total);
  const expected = Math.min(reads[0]?.total ?? 0, max ?? Number.POSITIVE_INFINITY) - (first - 1) * pageSize;
  if (!steady || first !== 1 || received >= expected) return undefined;
  return { received, total: expected, why: 'the server announced no more pages' };
}
