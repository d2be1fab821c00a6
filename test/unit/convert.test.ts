import { parse } from 'csv-parse/sync';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { convert, ScaleError, summaryLines, type ConvertOptions, type Target } from '../../src/convert/index.js';
import { cdata, escapeXml } from '../../src/convert/xml.js';
import { fixture, TRICKY_TITLE } from './convert-fixture.js';

type Row = Record<string, string>;

function csvRows(content: string): Row[] {
  return parse(content, { columns: true, skip_empty_lines: false }) as Row[];
}

function run(target: Target, options: ConvertOptions = {}) {
  const result = convert(target, fixture(), { timeZone: 'UTC', ...options });
  return { result, rows: target === 'mal' ? [] : result.files.flatMap((file) => csvRows(file.content)) };
}

function malAnime(xml: string): Record<string, unknown>[] {
  const doc = new XMLParser({ parseTagValue: false, trimValues: false }).parse(xml) as { myanimelist: { anime: unknown } };
  const anime = doc.myanimelist.anime;
  return (Array.isArray(anime) ? anime : [anime]) as Record<string, unknown>[];
}

describe('letterboxd', () => {
  it('writes one diary row per dated watch, the title with its comma, quotes and newline intact', () => {
    const { rows } = run('letterboxd');
    const fight = rows.filter((row) => row.tmdbID === '550');
    expect(fight.map((row) => [row.Title, row.Year, row.WatchedDate, row.Rewatch])).toEqual([
      [TRICKY_TITLE, '1999', '2025-01-02', 'false'],
      [TRICKY_TITLE, '1999', '2025-03-01', 'true'],
    ]);
  });

  it('WatchedDate is the local day of the watch: 23:30 UTC is the next day in Tokyo', () => {
    const { rows } = run('letterboxd', { timeZone: 'Asia/Tokyo' });
    expect(rows.filter((row) => row.tmdbID === '550').map((row) => row.WatchedDate)).toEqual(['2025-01-03', '2025-03-01']);
  });

  it('ratings 10 and 1 of a 10-point scale become 5 and 0.5 stars', () => {
    const { rows } = run('letterboxd');
    expect(rows.find((row) => row.tmdbID === '550')!.Rating).toBe('5');
    expect(rows.find((row) => row.Title === '七人の侍')!.Rating).toBe('0.5');
  });

  it('the review goes on the latest diary row only, with its title', () => {
    const { rows } = run('letterboxd');
    expect(rows.filter((row) => row.tmdbID === '550').map((row) => row.Review)).toEqual(['', 'Rules\n\nFirst rule:\n"don\'t", talk.']);
  });

  it('a tmdbID only for TMDB works: an IMDb-sourced film goes by IMDb id, title and year, without a date', () => {
    const { rows } = run('letterboxd');
    expect(rows.filter((row) => row.Title === '七人の侍')).toEqual([
      {
        LetterboxdURI: '',
        tmdbID: '',
        imdbID: 'tt0047478',
        Title: '七人の侍',
        Year: '1954',
        WatchedDate: '',
        Rating: '0.5',
        Rewatch: '',
        Tags: '',
        Review: '',
      },
    ]);
  });

  it('a rated film never watched is a rating-only row; a planned film is left out, not written', () => {
    const { rows, result } = run('letterboxd');
    expect(rows.find((row) => row.tmdbID === '603')).toMatchObject({ Title: 'The Matrix', Year: '1999', WatchedDate: '', Rating: '3' });
    expect(rows.some((row) => row.tmdbID === '13')).toBe(false);
    expect(result.tally.leftOut.get('planned films, never watched (Letterboxd imports a watchlist separately)')).toBe(1);
  });

  it('the second undated watch of a film is counted as skipped, and so is an event of no entry', () => {
    const { result } = run('letterboxd');
    expect(result.tally.skipped.get('undated watches of a film already written (Letterboxd holds one undated watch per film, no count)')).toBe(1);
    expect(result.tally.skipped.get('history events that match no library entry')).toBe(1);
    expect(summaryLines(result).join('\n')).toContain('lk: 2 skipped:');
  });

  it('an undated first watch of a film rewatched on a date is told by Rewatch=true, not counted as lost', () => {
    const snapshot = {
      entries: [{ id: 'f', work: { id: 'wf', source: 'tmdb', sourceId: '1', type: 'film', title: 'Twice' }, status: 'COMPLETED', phase: 'DONE' }],
      history: [
        { entryId: 'f', kind: 'FILM_SEEN', date: '2025-05-05T10:00:00.000Z', cycle: 2 },
        { entryId: 'f', kind: 'FILM_SEEN', date: null, cycle: 1 },
      ],
      reviews: [],
    };
    const result = convert('letterboxd', snapshot, { timeZone: 'UTC' });
    expect(csvRows(result.files[0]!.content).map((row) => [row.WatchedDate, row.Rewatch])).toEqual([['2025-05-05', 'true']]);
    expect(result.tally.rowsSkipped).toBe(0);
    expect(result.tally.notes).toContain('1 undated earlier watch of films logged again later: told by Rewatch=true on the dated row');
  });

  it('--since keeps later watches and counts undated ones as skipped', () => {
    const { rows, result } = run('letterboxd', { since: Date.parse('2025-02-01T00:00:00Z') });
    expect(rows.filter((row) => row.tmdbID === '550').map((row) => row.WatchedDate)).toEqual(['2025-03-01']);
    expect(result.tally.skipped.get('undated watches (no date to compare with --since)')).toBe(2);
  });

  it('splits into files under the byte limit, each with the header, no row lost or cut', () => {
    const whole = run('letterboxd').rows;
    const { result } = run('letterboxd', { maxFileBytes: 200 });
    expect(result.files.length).toBeGreaterThan(1);
    expect(result.files.map((file) => file.part)).toEqual(result.files.map((_, index) => index + 1));
    for (const file of result.files) {
      expect(file.content.startsWith('LetterboxdURI,tmdbID,imdbID,Title,Year,WatchedDate,Rating,Rewatch,Tags,Review\n')).toBe(true);
    }
    expect(result.files.flatMap((file) => csvRows(file.content))).toEqual(whole);
  });

  it('a library over 1 MB is split into files of at most 1,000,000 bytes', () => {
    const snapshot = fixture();
    const review = 'Ünïcode, "quoted", and long. '.repeat(40);
    for (let n = 0; n < 1500; n += 1) {
      snapshot.entries.push({
        id: `big${n}`,
        work: { id: `wb${n}`, source: 'tmdb', sourceId: String(10_000 + n), type: 'film', title: `Film ${n}`, year: 2000 },
        status: 'COMPLETED',
        phase: 'DONE',
        rating: 5,
      });
      snapshot.history.push({ entryId: `big${n}`, kind: 'FILM_SEEN', date: '2025-05-05T10:00:00.000Z', cycle: 1 });
      snapshot.reviews.push({ entryId: `big${n}`, body: review });
    }
    const result = convert('letterboxd', snapshot, { timeZone: 'UTC' });
    expect(result.files.length).toBeGreaterThanOrEqual(2);
    for (const file of result.files) expect(Buffer.byteLength(file.content)).toBeLessThanOrEqual(1_000_000);
    const rows = result.files.flatMap((file) => csvRows(file.content));
    expect(rows.filter((row) => row.Title.startsWith('Film ')).length).toBe(1500);
    expect(rows.find((row) => row.Title === 'Film 1499')!.Review).toBe(review);
  });
});

describe('goodreads', () => {
  it('writes the columns in Goodreads order, ISBNs as ="…" cells, dates as YYYY/MM/DD', () => {
    const { result, rows } = run('goodreads');
    expect(result.files[0]!.content.split('\n')[0]).toBe(
      'Book Id,Title,Author,Author l-f,Additional Authors,ISBN,ISBN13,My Rating,Average Rating,Publisher,Binding,Number of Pages,Year Published,Original Publication Year,Date Read,Date Added,Bookshelves,Bookshelves with positions,Exclusive Shelf,My Review,Spoiler,Private Notes,Read Count,Owned Copies',
    );
    expect(result.files[0]!.content).toContain('"=""0141439599""","=""9780141439594"""');
    expect(rows.find((row) => row.Title === 'Tess, "of the" d’Urbervilles')).toMatchObject({
      Author: 'Thomas Hardy',
      'Author l-f': 'Hardy, Thomas',
      'Additional Authors': 'Ann Editor',
      ISBN: '="0141439599"',
      ISBN13: '="9780141439594"',
      'My Rating': '4',
      'Number of Pages': '592',
      'Year Published': '1891',
      'Date Read': '2025/02/10',
      'Date Added': '2024/12/31',
      'Exclusive Shelf': 'read',
      'My Review': 'Sad, but <great>.',
      Spoiler: '',
      'Private Notes': 'private, "notes"',
      'Read Count': '2',
    });
  });

  it('Date Added is the local day: 23:30 UTC on Dec 31 is Jan 1 in Tokyo', () => {
    const { rows } = run('goodreads', { timeZone: 'Asia/Tokyo' });
    expect(rows.find((row) => row.Title.startsWith('Tess'))!['Date Added']).toBe('2025/01/01');
  });

  it('reads an independent server’s fields: title under name, author as a string, ISBN as source, year from a date', () => {
    const { rows, result } = run('goodreads');
    expect(rows.find((row) => row.Title === 'Плоский мир')).toMatchObject({
      Author: 'Терри Пратчетт',
      ISBN13: '="9780306406157"',
      'Year Published': '1983',
      'Exclusive Shelf': 'currently-reading',
      'My Rating': '0',
      'Date Added': '',
    });
    expect(result.files[0]!.content).not.toContain('undefined');
  });
});

describe('yamtrack', () => {
  it('one row per entry with Yamtrack statuses, 0–10 scores and a catalogue id only for catalogues it uses', () => {
    const { rows } = run('yamtrack');
    const by = (title: string) => rows.find((row) => row.title === title)!;
    expect(by(TRICKY_TITLE)).toMatchObject({
      media_id: '550',
      source: 'tmdb',
      media_type: 'movie',
      score: '10.0',
      progress: '1',
      status: 'Completed',
      repeats: '1',
      end_date: '2025-03-01T12:00:00Z',
    });
    expect(by('七人の侍')).toMatchObject({ media_id: '', source: '', media_type: 'movie', score: '1.0' });
    expect(by('The Witcher 3')).toMatchObject({
      media_id: '1942',
      source: 'igdb',
      media_type: 'game',
      progress: '2:05',
      status: 'In progress',
      score: '8.0',
    });
    expect(by('ONE PIECE')).toMatchObject({ media_id: '', source: '', media_type: 'anime', progress: '12', status: 'In progress', score: '' });
    expect(by('Fullmetal ]]> Alchemist\u0007')).toMatchObject({ media_id: '5114', source: 'mal', media_type: 'anime', status: 'Completed' });
    expect(by('Forrest Gump')).toMatchObject({ status: 'Planning', progress: '0' });
    expect(by('The Matrix')).toMatchObject({ status: 'Dropped' });
  });

  it('albums are skipped with the reason, and --domain keeps one domain', () => {
    const { rows, result } = run('yamtrack');
    expect(rows.some((row) => row.title === 'Abbey Road')).toBe(false);
    expect(result.tally.skipped.get('albums (Yamtrack has no music)')).toBe(1);
    const games = run('yamtrack', { domain: 'GAMES' }).rows;
    expect(games.map((row) => row.title)).toEqual(['The Witcher 3']);
  });
});

describe('mal', () => {
  it('writes MAL XML that parses back: ids, statuses, episodes, dates, scores, rewatches', () => {
    const { result } = run('mal');
    const anime = malAnime(result.files[0]!.content);
    expect(anime).toHaveLength(2);
    expect(anime[0]).toMatchObject({
      series_animedb_id: '5114',
      series_title: 'Fullmetal ]]> Alchemist',
      series_episodes: '64',
      my_watched_episodes: '30',
      my_start_date: '2025-04-01',
      my_finish_date: '0000-00-00',
      my_score: '9',
      my_status: 'Watching',
      my_comments: 'A & B < C',
      my_times_watched: '0',
      update_on_import: '1',
    });
    expect(anime[1]).toMatchObject({
      series_animedb_id: '0',
      series_title: 'ONE PIECE',
      my_status: 'Watching',
      my_score: '0',
      my_watched_episodes: '12',
    });
    expect(result.tally.notes.join('\n')).toContain('1 anime without a MyAnimeList id');
  });

  it('<myinfo> counts the statuses written', () => {
    const { result } = run('mal');
    const doc = new XMLParser({ parseTagValue: false }).parse(result.files[0]!.content) as { myanimelist: { myinfo: Record<string, string> } };
    expect(doc.myanimelist.myinfo).toMatchObject({
      user_export_type: '1',
      user_total_anime: '2',
      user_total_watching: '2',
      user_total_completed: '0',
    });
  });

  it('escapes text and attributes, drops characters XML cannot hold, and splits "]]>" across CDATA sections', () => {
    expect(escapeXml(`a&b<c>"d'\u0000e\uFFFF`)).toBe('a&amp;b&lt;c&gt;&quot;d&apos;e');
    const parsed = new XMLParser().parse(`<x>${cdata('1 ]]> 2 \u0001')}</x>`) as { x: string };
    expect(parsed.x).toBe('1 ]]> 2 ');
  });
});

describe('rating scale', () => {
  const rated = (ratings: number[]) => ({
    entries: ratings.map((rating, n) => ({
      id: `e${n}`,
      work: { id: `w${n}`, source: 'tmdb', sourceId: String(n + 1), type: 'film', title: `F${n}` },
      status: 'COMPLETED',
      phase: 'DONE',
      rating,
    })),
    history: [],
    reviews: [],
  });

  it('is the smallest of 5, 10 and 100 that holds the highest rating, and says how it was found', () => {
    expect(convert('letterboxd', rated([1, 4.5])).scale).toEqual({ scale: 5, how: 'detected: the highest of 2 ratings is 4.5' });
    expect(convert('letterboxd', rated([3, 7])).scale?.scale).toBe(10);
    const hundred = convert('letterboxd', rated([1, 73, 100]));
    expect(hundred.scale?.scale).toBe(100);
    expect(
      hundred.files[0]!.content.split('\n')
        .slice(1, 4)
        .map((line) => line.split(',')[6]),
    ).toEqual(['0.5', '3.5', '5']);
  });

  it('--rating-scale wins over the data: 5 of 5 is five stars, not two and a half', () => {
    const result = convert(
      'goodreads',
      { ...rated([]), entries: [{ id: 'b', work: { type: 'book', title: 'B' }, status: 'READ', rating: 5 }] },
      { ratingScale: 5 },
    );
    expect(result.scale).toEqual({ scale: 5, how: 'from --rating-scale' });
    expect(csvRows(result.files[0]!.content)[0]!['My Rating']).toBe('5');
  });

  it('ratings beyond 100 are refused rather than guessed', () => {
    expect(() => convert('letterboxd', rated([150]))).toThrow(ScaleError);
  });
});

describe('items with missing or odd fields', () => {
  const odd = {
    entries: [
      null,
      'not an entry',
      { id: 1, work: { type: 'film', title: 'Bare' }, status: 'COMPLETED' },
      { work: { type: 'book', name: 'Bare book' }, status: 'READ', rating: 'NaN', dates: { added: 'yesterday' } },
      { work: { type: 'anime', title: 'Bare anime' }, phase: 'IN_PROGRESS', progress: { episodes: null } },
      { work: { type: 'game', title: 'Bare game' }, phase: 'DONE', progress: 'lots' },
    ],
    history: [null, { entryId: 1, kind: 'FILM_SEEN', date: 'not a date', cycle: 'x' }],
    reviews: [{ entryId: 1 }],
  };

  it.each(['letterboxd', 'goodreads', 'yamtrack', 'mal'] as const)('%s writes no "undefined", "null" or "NaN"', (target) => {
    const result = convert(target, odd, { timeZone: 'UTC' });
    expect(result.tally.rowsWritten).toBeGreaterThan(0);
    for (const file of result.files) expect(file.content).not.toMatch(/undefined|null|NaN/);
  });

  it('unreadable items are counted as skipped, not dropped silently', () => {
    const { tally } = convert('yamtrack', odd, { timeZone: 'UTC' });
    expect(tally.skipped.get('library items that are not objects (unreadable)')).toBe(2);
    expect(tally.skipped.get('history events that match no library entry')).toBe(1);
  });

  it('an event with an unreadable date is an undated watch', () => {
    const rows = csvRows(convert('letterboxd', odd, { timeZone: 'UTC' }).files[0]!.content);
    expect(rows).toEqual([
      { LetterboxdURI: '', tmdbID: '', imdbID: '', Title: 'Bare', Year: '', WatchedDate: '', Rating: '', Rewatch: '', Tags: '', Review: '' },
    ]);
  });
});
