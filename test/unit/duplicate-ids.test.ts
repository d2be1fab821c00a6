import { describe, expect, it } from 'vitest';
import { DuplicateIds } from '../../src/diff/duplicate-ids.js';

describe('DuplicateIds (lk diff and lk export --git name ids carried twice)', () => {
  it('names exactly the ids seen more than once, through many growths of its table', () => {
    const ids = new DuplicateIds();
    for (let n = 0; n < 200_000; n++) ids.note('history', `e${n}-1`);
    for (const again of ['e7-1', 'e150000-1', 'e7-1']) ids.note('history', again);
    ids.note('library', 'x');
    ids.note('library', null);
    ids.note('library', null);
    expect(ids.said()).toBe('history e7-1 ×3, e150000-1 ×2');
  });

  it('three ids a collection at most, then how many more; none at all is undefined', () => {
    const ids = new DuplicateIds();
    expect(ids.said()).toBeUndefined();
    for (const id of ['a', 'b', 'c', 'd', 'e']) for (let n = 0; n < 2; n++) ids.note('lists', id);
    ids.note('reviews', 'r');
    ids.note('reviews', 'r');
    expect(ids.said()).toBe('lists a ×2, b ×2, c ×2 and 2 more; reviews r ×2');
  });
});
