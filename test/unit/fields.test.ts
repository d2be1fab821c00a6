import { describe, expect, it } from 'vitest';
import { columnsOf, parseFieldList, pickPaths } from '../../src/output/formats/fields.js';
import { getPath } from '../../src/util/object-path.js';

describe('dot paths', () => {
  it('reads nested values and gives undefined for anything missing', () => {
    const entry = { work: { title: 'Dune', year: null } };
    expect(getPath(entry, 'work.title')).toBe('Dune');
    expect(getPath(entry, 'work.year')).toBeNull();
    expect(getPath(entry, 'work.year.month')).toBeUndefined();
    expect(getPath(entry, 'nothing.here')).toBeUndefined();
  });

  it('parses --fields leniently around commas and blanks', () => {
    expect(parseFieldList(' id, work.title ,,status ')).toEqual(['id', 'work.title', 'status']);
  });

  it('picks paths into a nested object, missing ones as null', () => {
    expect(pickPaths({ id: '1', work: { title: 'Dune', year: 2021 } }, ['id', 'work.title', 'rating'])).toEqual({
      id: '1',
      work: { title: 'Dune' },
      rating: null,
    });
  });

  it('flattens nested objects into dot-path columns, keeping arrays whole and unknown fields', () => {
    const items = [
      { id: '1', work: { title: 'A' }, progress: null, tags: ['x'] },
      { id: '2', work: { title: 'B', extra: 1 }, progress: { episodes: 3 }, tags: [] },
    ];
    expect(columnsOf(items)).toEqual(['id', 'work.title', 'tags', 'work.extra', 'progress.episodes']);
  });
});
