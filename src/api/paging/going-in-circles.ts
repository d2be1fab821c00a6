import { sha256Hex } from '../../util/hash.js';

/** Pages in a row that bring no item not seen before: a server going round in circles, not a listing shifting. */
export const MAX_PAGES_WITHOUT_PROGRESS = 3;

/**
 * What makes a page the same as an earlier one: the same ids in the same order (hashed, so that remembering every
 * page of a long listing costs a few bytes each). Only a page with an item that has no id is serialised whole:
 * serialising every page again would cost --all a tenth of its time.
 */
export function fingerprintOf(items: readonly unknown[]): string {
  const ids = items.map((item) => (item as { id?: unknown } | null)?.id);
  const byIds = ids.every((id) => typeof id === 'string' || typeof id === 'number');
  return sha256Hex(byIds ? `ids ${JSON.stringify(ids)}` : `items ${JSON.stringify(items)}`);
}

/**
 * Policy: a repeated page. A server that keeps announcing more while it serves a page it served before, or page
 * after page of items already handed over, would be followed forever: says why to stop, or undefined to go on.
 * Catch-up reads are not shown to it (they re-read on purpose).
 */
export class GoingInCircles {
  private readonly fingerprints = new Set<string>();
  private pagesWithoutProgress = 0;

  /** `fresh`: how many of the page's items were not seen before. */
  problem(page: number, items: readonly unknown[], fresh: number): string | undefined {
    if (items.length === 0) {
      this.pagesWithoutProgress = 0;
      return undefined;
    }
    const fingerprint = fingerprintOf(items);
    if (this.fingerprints.has(fingerprint)) return `page ${page} repeats an earlier page (the server keeps announcing more)`;
    this.fingerprints.add(fingerprint);
    this.pagesWithoutProgress = fresh === 0 ? this.pagesWithoutProgress + 1 : 0;
    if (this.pagesWithoutProgress >= MAX_PAGES_WITHOUT_PROGRESS) {
      return `page ${page} is the ${MAX_PAGES_WITHOUT_PROGRESS}rd in a row with nothing new`;
    }
    return undefined;
  }
}
