import { describe, expect, it } from 'vitest';
import { numberedPath, unmatchedPath } from '../../src/commands/convert.js';
import { packCsv } from '../../src/convert/csv.js';
import { snapshotFromExport } from '../../src/convert/sources.js';

describe('numbered Letterboxd files', () => {
  it('letterboxd.csv becomes letterboxd-2.csv; a name without the extension gets it', () => {
    expect(numberedPath('/tmp/out/letterboxd.csv', 2, 'csv')).toBe('/tmp/out/letterboxd-2.csv');
    expect(numberedPath('/tmp/out/Films.CSV', 1, 'csv')).toBe('/tmp/out/Films-1.CSV');
    expect(numberedPath('/tmp/out/films', 3, 'csv')).toBe('/tmp/out/films-3.csv');
  });

  it('the rows set aside go beside the file: yamtrack.csv → yamtrack-unmatched.csv, anime.XML → anime-unmatched.csv', () => {
    expect(unmatchedPath('/tmp/out/yamtrack.csv', 'csv')).toBe('/tmp/out/yamtrack-unmatched.csv');
    expect(unmatchedPath('/tmp/out/anime.XML', 'xml')).toBe('/tmp/out/anime-unmatched.csv');
    expect(unmatchedPath('/tmp/out/list', 'xml')).toBe('/tmp/out/list-unmatched.csv');
  });

  it('a row larger than the limit still gets a file of its own, with the header', () => {
    const files = packCsv(['A'], ['x\n', `${'y'.repeat(50)}\n`, 'z\n'], 20);
    expect(files).toEqual(['A\nx\n', `A\n${'y'.repeat(50)}\n`, 'A\nz\n']);
  });
});

describe('the export as a snapshot', () => {
  it('reads library, history and reviews, and the other names an independent server may use', () => {
    expect(snapshotFromExport({ library: [1], history: [2], reviews: [3], lists: [4] })).toEqual({ entries: [1], history: [2], reviews: [3] });
    expect(snapshotFromExport({ entries: [1], events: [2] })).toEqual({ entries: [1], history: [2], reviews: [] });
  });
});
