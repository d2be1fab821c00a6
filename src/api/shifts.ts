/** One page as read: its number, how many items it held, and the total the server announced with it. */
export interface PageRead {
  page: number;
  count: number;
  total: number;
}

/**
 * A newest-first listing grows at the front while we page: an item at position p when paging began is at
 * p + (total now − total then). Pages read in order can only see an item twice (de-duplication handles that), but
 * pages answered out of order can step over one. Returns the spans of starting positions, from `from` up to `base`
 * (the first page's total), that no page read has covered.
 */
export function uncoveredSpans(reads: readonly PageRead[], limit: number, from: number, base: number): Array<[number, number]> {
  const covered = reads
    .map((read): [number, number] => {
      const start = (read.page - 1) * limit - (read.total - base);
      return [start, start + read.count];
    })
    .sort((a, b) => a[0] - b[0]);
  const gaps: Array<[number, number]> = [];
  let cursor = from;
  for (const [start, end] of covered) {
    if (cursor >= base) break;
    if (start > cursor) gaps.push([cursor, Math.min(start, base)]);
    cursor = Math.max(cursor, end);
  }
  if (cursor < base) gaps.push([cursor, base]);
  return gaps;
}

/** The page that holds, now, the item that was at `position` when paging began. */
export function pageNowHolding(position: number, limit: number, base: number, latestTotal: number): number {
  return Math.floor((position + Math.max(0, latestTotal - base)) / limit) + 1;
}
