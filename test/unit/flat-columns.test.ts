import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { IoStreams } from '../../src/output/terminal/io.js';
import { headerColumns, LateFields } from '../../src/output/formats/flat-columns.js';

describe('csv/tsv header columns', () => {
  it('are the union over the whole first page, in first-seen order', () => {
    expect(
      headerColumns([
        { id: 1, a: { x: 1 } },
        { id: 2, a: { y: 2 }, b: 3 },
      ]),
    ).toEqual(['id', 'a.x', 'a.y', 'b']);
  });

  it('take known fields next to their siblings; a null object gives way to its known fields', () => {
    const page = [{ id: 1, progress: null, url: 'u' }];
    expect(headerColumns(page, ['progress.pages', 'progress.minutes', 'rating'])).toEqual([
      'id',
      'progress.pages',
      'progress.minutes',
      'url',
      'rating',
    ]);
  });

  it('never let a known field hide what the data carries', () => {
    // The data nests under the known name, or holds a value where the known field expects an object.
    expect(headerColumns([{ episode: { number: 2 } }], ['episode'])).toEqual(['episode.number']);
    expect(headerColumns([{ progress: 5 }], ['progress.pages'])).toEqual(['progress']);
  });
});

describe('fields the header lacks', () => {
  function warnings(columns: string[], items: unknown[]): string {
    const stderr = new PassThrough();
    let text = '';
    stderr.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    const late = new LateFields(columns);
    for (const item of items) late.check(item);
    const io = new IoStreams({ stdout: new PassThrough(), stderr, env: {}, quiet: true });
    late.report(io, 'csv', items.length);
    late.report(io, 'csv', items.length);
    return text;
  }

  it('are named once, with the rows they were in, even with -q', () => {
    const text = warnings(['id', 'work.title'], [{ id: 1, work: { title: 't', pages: 3 } }, { id: 2, rating: 9, work: { title: 'u' } }, { id: 3 }]);
    expect(text.match(/^lk: warning:/gm)).toHaveLength(1);
    expect(text).toContain('in 2 of 3 rows: work.pages, rating');
    expect(text).toMatch(/--fields/);
  });

  it('are not reported when nothing is lost: nulls, empty objects, values under a column that holds them whole', () => {
    expect(warnings(['id', 'progress'], [{ id: 1, extra: null, more: {}, progress: { pages: 3 } }])).toBe('');
  });

  it("include a value where the header expects an object's fields", () => {
    expect(warnings(['progress.pages'], [{ progress: 7 }])).toContain('progress');
  });
});
