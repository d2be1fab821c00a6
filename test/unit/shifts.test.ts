import { describe, expect, it } from 'vitest';
import { pageNowHolding, uncoveredSpans } from '../../src/api/shifts.js';

describe('uncoveredSpans', () => {
  it('finds nothing missing when pages tile the listing, even as it grows', () => {
    const reads = [
      { page: 1, count: 100, total: 250 },
      { page: 2, count: 100, total: 255 },
      { page: 3, count: 60, total: 260 },
    ];
    expect(uncoveredSpans(reads, 100, 0, 250)).toEqual([]);
  });

  it('finds the items stepped over when page 3 was answered before 5 entries were added and page 2 after', () => {
    const reads = [
      { page: 1, count: 100, total: 250 },
      { page: 3, count: 50, total: 250 },
      { page: 2, count: 100, total: 255 },
    ];
    // Page 2 then held starting positions 95..194: 195..199 were on neither page.
    expect(uncoveredSpans(reads, 100, 0, 250)).toEqual([[195, 200]]);
  });

  it('finds the tail when the last page read was short of the first total', () => {
    expect(uncoveredSpans([{ page: 1, count: 100, total: 150 }], 100, 0, 150)).toEqual([[100, 150]]);
  });
});

describe('pageNowHolding', () => {
  it('follows an item as entries are added in front of it', () => {
    expect(pageNowHolding(195, 100, 250, 250)).toBe(2);
    expect(pageNowHolding(195, 100, 250, 260)).toBe(3);
  });
});
