import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { convert, type Target } from '../../src/convert/index.js';
import { fixture } from './convert-fixture.js';
import { CONTRACTS, goodreadsViolations, letterboxdViolations, malViolations, yamtrackViolations } from './importer-contracts.js';
import { randomLibrary } from './random-library.js';

const TARGETS = ['yamtrack', 'mal', 'letterboxd', 'goodreads'] as const satisfies readonly Target[];

function files(target: Target, snapshot = fixture()) {
  const result = convert(target, snapshot, { timeZone: 'UTC' });
  return { result, contents: result.files.map((file) => file.content) };
}

describe('every file is taken whole by the importer it names', () => {
  it.each(TARGETS)('%s: the fixture’s file parses back with the format’s rules, with no violation', (target) => {
    const { contents, result } = files(target);
    expect(result.tally.rowsWritten).toBeGreaterThan(0);
    for (const content of contents) expect(CONTRACTS[target](content)).toEqual([]);
  });

  it.each(TARGETS)('%s: over 200 random libraries, every written row satisfies the contract', (target) => {
    for (let seed = 1; seed <= 200; seed += 1) {
      const { contents, result } = files(target, randomLibrary(seed));
      for (const content of contents) expect(CONTRACTS[target](content), `seed ${seed}`).toEqual([]);
      // Whatever was kept out is in the unmatched file, one row each, with its reason.
      const unmatched = result.unmatched === undefined ? [] : (parse(result.unmatched, { columns: true }) as Record<string, string>[]);
      expect(unmatched, `seed ${seed}`).toHaveLength(result.tally.rowsSetAside);
      for (const row of unmatched) expect(row.reason, `seed ${seed}`).not.toBe('');
    }
  });

  it('over the random libraries, each target writes rows and sets some aside (the generator reaches both)', () => {
    const totals = Object.fromEntries(TARGETS.map((target) => [target, { written: 0, setAside: 0, byTitle: 0 }]));
    for (let seed = 1; seed <= 50; seed += 1) {
      for (const target of TARGETS) {
        const { tally } = convert(target, randomLibrary(seed), { timeZone: 'UTC' });
        totals[target]!.written += tally.rowsWritten;
        totals[target]!.setAside += tally.rowsSetAside;
        totals[target]!.byTitle += tally.rowsByTitle;
      }
    }
    for (const target of TARGETS) expect(totals[target]!.written, target).toBeGreaterThan(0);
    expect(totals.yamtrack.setAside).toBeGreaterThan(0);
    expect(totals.mal.setAside).toBeGreaterThan(0);
    expect(totals.letterboxd.byTitle).toBeGreaterThan(0);
    expect(totals.goodreads.byTitle).toBeGreaterThan(0);
  });
});

describe('the contracts catch what an importer would refuse or lose', () => {
  const yamtrack = files('yamtrack').contents[0]!;
  const mal = files('mal').contents[0]!;
  const letterboxd = files('letterboxd').contents[0]!;
  const goodreads = files('goodreads').contents[0]!;

  it('Yamtrack: a renamed progressed_at, a start_date as "Mon Nov 23 2026", an empty media_id, an unknown status', () => {
    expect(yamtrackViolations(yamtrack.replace('progressed_at', 'progressedAt'))).toContainEqual(expect.stringMatching(/^header/));
    expect(
      yamtrackViolations(yamtrack.replace(',2025-01-02T23:30:00Z,2025-03-01T12:00:00Z,', ',Mon Nov 23 2026,2025-03-01T12:00:00Z,')),
    ).toContainEqual(expect.stringMatching(/start_date Mon Nov 23 2026/));
    expect(yamtrackViolations(yamtrack.replace('\n550,tmdb,', '\n,,'))).toContainEqual(expect.stringMatching(/no media_id/));
    expect(yamtrackViolations(yamtrack.replace(',Completed,', ',Watching,'))).toContainEqual(expect.stringMatching(/status "Watching"/));
  });

  it('MAL: my_priority LOW, a missing my_sns, an id of 0, a made-up series_type', () => {
    expect(malViolations(mal.replace('<my_priority>Low<', '<my_priority>LOW<'))).toContainEqual(expect.stringMatching(/my_priority LOW/));
    expect(malViolations(mal.replace(/\t\t<my_sns>default<\/my_sns>\n/, ''))).toContainEqual(
      expect.stringMatching(/tags .*my_discuss,update_on_import/),
    );
    expect(malViolations(mal.replace('<series_animedb_id>5114<', '<series_animedb_id>0<'))).toContainEqual(
      expect.stringMatching(/series_animedb_id 0/),
    );
    expect(malViolations(mal.replace('<series_type>Unknown<', '<series_type>Series<'))).toContainEqual(expect.stringMatching(/series_type Series/));
  });

  it('Letterboxd: a Rating of 0, a WatchedDate as 02/01/2025, a renamed column', () => {
    expect(letterboxdViolations(letterboxd.replace(/,5,false,/, ',0,false,'))).toContainEqual(expect.stringMatching(/Rating 0/));
    expect(letterboxdViolations(letterboxd.replace('2025-01-02', '02/01/2025'))).toContainEqual(expect.stringMatching(/WatchedDate/));
    expect(letterboxdViolations(letterboxd.replace('WatchedDate', 'Date'))).toContainEqual(expect.stringMatching(/^header/));
  });

  it('Goodreads: a did-not-finish Exclusive Shelf, a Date Read as 2025-02-10, a half star', () => {
    expect(goodreadsViolations(goodreads.replace(',read,', ',did-not-finish,'))).toContainEqual(
      expect.stringMatching(/Exclusive Shelf did-not-finish/),
    );
    expect(goodreadsViolations(goodreads.replace('2025/02/10', '2025-02-10'))).toContainEqual(expect.stringMatching(/Date Read 2025-02-10/));
    expect(goodreadsViolations(goodreads.replace(',4,,', ',3.5,,'))).toContainEqual(expect.stringMatching(/My Rating 3.5/));
  });
});
