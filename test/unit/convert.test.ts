import { parse } from 'csv-parse/sync';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { convert, ScaleError, summaryLines, type ConvertOptions, type Target } from '../../src/convert/index.js';
import { localDate } from '../../src/convert/common.js';
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

  it('a rating of 0 is no rating, not half a star', () => {
    const snapshot = fixture();
    (snapshot.entries[2] as Record<string, unknown>).rating = 0;
    const rows = csvRows(convert('letterboxd', snapshot, { timeZone: 'UTC' }).files[0]!.content);
    expect(rows.find((row) => row.tmdbID === '603')!.Rating).toBe('');
  });

  it('a film with neither a TMDB nor an IMDb id is written by Title and Year, and counted as matched by title', () => {
    const snapshot = fixture();
    snapshot.entries.push({
      id: 'x',
      work: { id: 'wx', source: 'kinopoisk', sourceId: '1', type: 'film', title: 'Stalker', year: 1979 },
      status: 'COMPLETED',
      rating: 8,
    });
    const result = convert('letterboxd', snapshot, { timeZone: 'UTC' });
    expect(csvRows(result.files[0]!.content).find((row) => row.Title === 'Stalker')).toMatchObject({ tmdbID: '', imdbID: '', Year: '1979' });
    expect(summaryLines(result)).toEqual(
      expect.arrayContaining(['lk: 1 row the importer can only match by title:', '  1 films with no TMDB or IMDb id: Title and Year']),
    );
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

  it('a dropped book is on currently-reading with a did-not-finish shelf, counted as a value lk chose', () => {
    const snapshot = fixture();
    Object.assign(snapshot.entries[4] as Record<string, unknown>, { status: 'DROPPED', phase: 'DROPPED' });
    const result = convert('goodreads', snapshot, { timeZone: 'UTC' });
    expect(csvRows(result.files[0]!.content).find((row) => row.Title.startsWith('Tess'))).toMatchObject({
      'Exclusive Shelf': 'currently-reading',
      Bookshelves: 'did-not-finish',
    });
    expect(result.tally.rowsGuessed).toBe(1);
  });

  it('a book without an ISBN is counted as matched by title and author', () => {
    const { result } = run('goodreads');
    expect(result.tally.rowsByTitle).toBe(0);
    const snapshot = fixture();
    snapshot.entries.push({ id: 'b', work: { id: 'wb', type: 'book', title: 'Mort', authors: ['Terry Pratchett'] }, status: 'READ' });
    expect([...convert('goodreads', snapshot).tally.byTitle]).toEqual([['books with no ISBN: title and author', 1]]);
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
  it('a row per watch of a film, with Yamtrack statuses, 0–10 scores and the catalogue id', () => {
    const { rows } = run('yamtrack');
    const fight = rows.filter((row) => row.title === TRICKY_TITLE);
    // Seen twice: the first watch is a repeated row of its own (Yamtrack reads no repeat count).
    expect(fight.map((row) => [row.media_id, row.source, row.media_type, row.score, row.status, row.end_date])).toEqual([
      ['550', 'tmdb', 'movie', '10.0', 'Completed', '2025-01-02T23:30:00Z'],
      ['550', 'tmdb', 'movie', '10.0', 'Completed', '2025-03-01T12:00:00Z'],
    ]);
    expect(rows.find((row) => row.title === 'The Witcher 3')).toMatchObject({
      media_id: '1942',
      source: 'igdb',
      media_type: 'game',
      progress: '2:05',
      status: 'In progress',
      score: '8.0',
    });
    expect(rows.find((row) => row.title === 'Forrest Gump')).toMatchObject({ status: 'Planning', progress: '' });
    expect(rows.find((row) => row.title === 'The Matrix')).toMatchObject({ status: 'Dropped' });
  });

  it('a show caught up while airing is In progress, as it is Watching in the MAL file', () => {
    const { rows } = run('yamtrack');
    expect(rows.find((row) => row.title === 'Fullmetal ]]> Alchemist\u0007')).toMatchObject({
      media_id: '5114',
      source: 'mal',
      status: 'In progress',
    });
    const mal = malAnime(run('mal').result.files[0]!.content);
    expect(mal[0]).toMatchObject({ series_animedb_id: '5114', my_status: 'Watching' });
  });

  it('rows without a catalogue id Yamtrack uses go to the unmatched file, never into the file', () => {
    const { rows, result } = run('yamtrack');
    expect(rows.every((row) => row.media_id !== '' && row.source !== '')).toBe(true);
    expect(rows.some((row) => row.title === 'ONE PIECE' || row.title === '七人の侍')).toBe(false);
    const unmatched = csvRows(result.unmatched!);
    expect(unmatched.map((row) => row.title).sort()).toEqual(['ONE PIECE', 'Плоский мир', '七人の侍'].sort());
    expect(unmatched[0]!.reason).toMatch(/aborts the whole import/);
    expect(result.tally.rowsSetAside).toBe(3);
  });

  it('a show is its tv row, a season row per season watched and an episode row per episode watch', () => {
    const snapshot = {
      entries: [{ id: 's', work: { id: 'ws', source: 'tmdb', sourceId: '1399', type: 'series', title: 'Thrones' }, status: 'WATCHING', rating: 8 }],
      history: [
        { entryId: 's', kind: 'EPISODE_SEEN', season: 2, episode: 1, date: '2025-02-01T20:00:00.000Z', cycle: 1 },
        { entryId: 's', kind: 'EPISODE_SEEN', season: 1, episode: 2, date: '2025-01-02T20:00:00.000Z', cycle: 1 },
        { entryId: 's', kind: 'EPISODE_SEEN', season: 1, episode: 1, date: '2025-01-01T20:00:00.000Z', cycle: 1 },
        { entryId: 's', kind: 'EPISODE_SEEN', season: 1, episode: 1, date: '2025-03-01T20:00:00.000Z', cycle: 2 },
      ],
      reviews: [],
    };
    const rows = csvRows(convert('yamtrack', snapshot, { timeZone: 'UTC' }).files[0]!.content);
    expect(rows.map((row) => [row.media_type, row.season_number, row.episode_number, row.status, row.score, row.end_date])).toEqual([
      ['tv', '', '', 'In progress', '8.0', ''],
      ['season', '1', '', 'Completed', '8.0', ''],
      ['episode', '1', '1', '', '', '2025-01-01T20:00:00Z'],
      ['episode', '1', '2', '', '', '2025-01-02T20:00:00Z'],
      ['episode', '1', '1', '', '', '2025-03-01T20:00:00Z'],
      ['season', '2', '', 'In progress', '8.0', ''],
      ['episode', '2', '1', '', '', '2025-02-01T20:00:00Z'],
    ]);
  });

  it('the work’s image URL when the server gives one, so that Yamtrack need not fetch each row’s metadata', () => {
    const snapshot = fixture();
    (snapshot.entries[8] as { work: Record<string, unknown> }).work.coverUrl = 'https://img.example/witcher.jpg';
    const rows = csvRows(convert('yamtrack', snapshot).files[0]!.content);
    expect(rows.find((row) => row.title === 'The Witcher 3')!.image).toBe('https://img.example/witcher.jpg');
    expect(rows.find((row) => row.title === 'Forrest Gump')!.image).toBe('');
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
    expect(anime).toHaveLength(1);
    expect(anime[0]).toMatchObject({
      series_animedb_id: '5114',
      series_title: 'Fullmetal ]]> Alchemist',
      series_type: 'Unknown',
      series_episodes: '64',
      my_watched_episodes: '30',
      my_start_date: '2025-04-01',
      my_finish_date: '0000-00-00',
      my_score: '9',
      my_status: 'Watching',
      my_comments: 'A & B < C',
      my_times_watched: '0',
      my_priority: 'Low',
      my_sns: 'default',
      update_on_import: '1',
    });
  });

  it('an anime without a MyAnimeList id goes to the unmatched file, not into the XML as id 0', () => {
    const { result } = run('mal');
    expect(result.files[0]!.content).not.toContain('<series_animedb_id>0<');
    expect(csvRows(result.unmatched!)).toEqual([
      expect.objectContaining({ series_title: 'ONE PIECE', my_status: 'Watching', my_watched_episodes: '12' }),
    ]);
    expect(summaryLines(result, 'anime-unmatched.csv')).toContain('lk: 1 row the importer would fail on or drop, written to anime-unmatched.csv:');
  });

  it('series_type is the work’s own format in MAL’s words, else Unknown', () => {
    const snapshot = fixture();
    (snapshot.entries[6] as { work: Record<string, unknown> }).work.format = 'OVA';
    const anime = malAnime(convert('mal', snapshot).files[0]!.content);
    expect(anime[0]!.series_type).toBe('OVA');
  });

  it('<myinfo> counts the statuses written', () => {
    const { result } = run('mal');
    const doc = new XMLParser({ parseTagValue: false }).parse(result.files[0]!.content) as { myanimelist: { myinfo: Record<string, string> } };
    expect(doc.myanimelist.myinfo).toMatchObject({
      user_export_type: '1',
      user_total_anime: '1',
      user_total_watching: '1',
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
    expect(result.tally.rowsWritten + result.tally.rowsSetAside).toBeGreaterThan(0);
    for (const content of [...result.files.map((file) => file.content), result.unmatched ?? '']) expect(content).not.toMatch(/undefined|null|NaN/);
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

describe("a day in the process's own time zone", () => {
  it('follows TZ when it changes while the process runs (a formatter is kept per zone, not made once)', () => {
    const lateEvening = Date.UTC(2025, 5, 1, 22, 30); // June 2nd in Tokyo, June 1st in UTC
    const zone = process.env.TZ;
    try {
      process.env.TZ = 'Asia/Tokyo';
      expect(localDate(lateEvening, undefined)).toBe('2025-06-02');
      process.env.TZ = 'UTC';
      expect(localDate(lateEvening, undefined)).toBe('2025-06-01');
      process.env.TZ = 'Asia/Tokyo';
      expect(localDate(lateEvening, undefined)).toBe('2025-06-02');
      expect(localDate(lateEvening, 'UTC')).toBe('2025-06-01');
    } finally {
      process.env.TZ = zone;
    }
  });
});
