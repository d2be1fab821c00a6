import { describe, expect, it } from 'vitest';
import { CatchUp, MAX_CATCH_UP_PAGES } from '../../src/api/paging/catch-up.js';
import { emptyPageWithMore, morePastTotal, noMoreBeforeSteadyTotal } from '../../src/api/paging/ending-short.js';
import { fingerprintOf, GoingInCircles } from '../../src/api/paging/going-in-circles.js';
import { SeenItems } from '../../src/api/paging/seen-items.js';

const items = (...ids: Array<string | number>) => ids.map((id) => ({ id }));

describe('duplicates: SeenItems', () => {
  it('hands each id over once and counts the ones dropped', () => {
    const seen = new SeenItems();
    expect(seen.fresh(items('a', 'b', 'c'))).toEqual(items('a', 'b', 'c'));
    expect(seen.fresh(items('c', 'd'))).toEqual(items('d'));
    expect(seen.dropped).toBe(1);
  });

  it('keeps every item without an id, and tells 1 from "1"', () => {
    const seen = new SeenItems();
    expect(seen.fresh([{ title: 'x' }, { title: 'x' }, null, { id: 1 }, { id: '1' }])).toHaveLength(5);
    expect(seen.dropped).toBe(0);
  });
});

describe('a repeated page: GoingInCircles', () => {
  it('a page with the ids of an earlier page, in the same order, is a repeat', () => {
    const circles = new GoingInCircles();
    expect(circles.problem(1, items('a', 'b'), 2)).toBeUndefined();
    expect(circles.problem(2, items('c', 'd'), 2)).toBeUndefined();
    expect(circles.problem(3, items('a', 'b'), 0)).toBe('page 3 repeats an earlier page (the server keeps announcing more)');
  });

  it('the same ids in another order, or one more, are another page', () => {
    const circles = new GoingInCircles();
    expect(circles.problem(1, items('a', 'b'), 2)).toBeUndefined();
    expect(circles.problem(2, items('b', 'a'), 0)).toBeUndefined();
    expect(circles.problem(3, items('a', 'b', 'c'), 1)).toBeUndefined();
  });

  it('the third page in a row with nothing new stops the listing; a page with something new starts the count again', () => {
    const circles = new GoingInCircles();
    circles.problem(1, items(1, 2, 3), 3);
    expect(circles.problem(2, items(3, 2), 0)).toBeUndefined();
    expect(circles.problem(3, items(2, 1), 0)).toBeUndefined();
    expect(circles.problem(4, items(4), 1)).toBeUndefined();
    expect(circles.problem(5, items(1, 3), 0)).toBeUndefined();
    expect(circles.problem(6, items(3, 1), 0)).toBeUndefined();
    expect(circles.problem(7, items(1, 2), 0)).toBe('page 7 is the 3rd in a row with nothing new');
  });

  it('pages without ids are told apart by their content', () => {
    expect(fingerprintOf([{ title: 'a' }])).not.toBe(fingerprintOf([{ title: 'b' }]));
    expect(fingerprintOf(items('a'))).toBe(fingerprintOf([{ id: 'a', title: 'another title' }]));
  });
});

describe('catch-up: CatchUp', () => {
  it('asks for nothing when the pages tiled the listing', () => {
    const reads = [
      { page: 1, count: 100, total: 250 },
      { page: 2, count: 100, total: 250 },
      { page: 3, count: 50, total: 250 },
    ];
    expect(new CatchUp(reads, 100, 1, 250).nextPage()).toBeUndefined();
  });

  it('asks for the page now holding the span stepped over, until a read covers it', () => {
    const reads = [
      { page: 1, count: 100, total: 250 },
      { page: 3, count: 50, total: 250 },
      { page: 2, count: 100, total: 255 },
    ];
    const catchUp = new CatchUp(reads, 100, 1, 250);
    // Positions 195..199 were on neither page; with 5 entries added in front they are now at 200..204: page 3.
    expect(catchUp.nextPage()).toBe(3);
    reads.push({ page: 3, count: 55, total: 255 });
    expect(catchUp.nextPage()).toBeUndefined();
  });

  it(`reads again at most ${MAX_CATCH_UP_PAGES} pages, however much stays uncovered`, () => {
    const catchUp = new CatchUp([{ page: 1, count: 10, total: 1000 }], 10, 1, 1000);
    const asked = Array.from({ length: MAX_CATCH_UP_PAGES + 3 }, () => catchUp.nextPage());
    expect(asked.filter((page) => page !== undefined)).toHaveLength(MAX_CATCH_UP_PAGES);
  });
});

describe('ending short', () => {
  it('an empty page announcing more ends short, naming the largest total', () => {
    expect(emptyPageWithMore(2, 0, 100, 1000)).toEqual({
      received: 100,
      total: 1000,
      why: 'the server announced more, then sent an empty page 2',
    });
    expect(emptyPageWithMore(2, 1, 100, 1000)).toBeUndefined();
  });

  it('more announced two pages past the last page the total needs ends short, one page past does not', () => {
    expect(morePastTotal(4, 100, 400, 300)).toBeUndefined();
    expect(morePastTotal(5, 100, 500, 300)).toEqual({ received: 500, total: 300, why: 'the server still announced more at page 5, past its total' });
  });

  const steady = [
    { page: 1, count: 100, total: 300 },
    { page: 2, count: 100, total: 300 },
  ];
  const ending = { reads: steady, duplicates: 0, first: 1, pageSize: 100, max: undefined, received: 200 };

  it('no more pages before a total that never changed ends short', () => {
    expect(noMoreBeforeSteadyTotal(ending)).toEqual({ received: 200, total: 300, why: 'the server announced no more pages' });
  });

  it('a shift explains it: a duplicate dropped, or a total that changed', () => {
    expect(noMoreBeforeSteadyTotal({ ...ending, duplicates: 1 })).toBeUndefined();
    expect(noMoreBeforeSteadyTotal({ ...ending, reads: [steady[0]!, { page: 2, count: 100, total: 290 }] })).toBeUndefined();
  });

  it('--max counts, not the total; a listing from --page 2 is not judged', () => {
    expect(noMoreBeforeSteadyTotal({ ...ending, max: 200 })).toBeUndefined();
    expect(noMoreBeforeSteadyTotal({ ...ending, first: 2 })).toBeUndefined();
  });
});
