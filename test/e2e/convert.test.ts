import { parse } from 'csv-parse/sync';
import { XMLParser } from 'fast-xml-parser';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startFakeApi } from './fake-api.js';
import { expectRefusedBeforeAnyRequest, runLk, startTestBed, tempHome, type TestBed } from './harness.js';

type Row = Record<string, string>;
type Json = Record<string, any>;

let bed: TestBed;
let exported: { library: Json[]; history: Json[]; reviews: Json[] };

beforeAll(async () => {
  bed = await startTestBed({ rateLimit: 0 });
  // The same cached export every lk convert below reads (one export an hour): the data to check the files against.
  const result = await bed.lk(['export']);
  expect(result.code).toBe(0);
  exported = JSON.parse(result.stdout) as typeof exported;
});

afterAll(async () => {
  await bed.sandbox.close();
});

function csv(text: string): Row[] {
  return parse(text, { columns: true }) as Row[];
}

function outDir(): string {
  return mkdtempSync(join(tmpdir(), 'lk-convert-'));
}

function localDay(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));
}

const entriesOf = (type: string) => exported.library.filter((entry) => entry.work.type === type);

describe('lk convert letterboxd', () => {
  it('writes one diary row per dated watch of each film: TMDB id, title, year, local date, half stars, rewatch', async () => {
    const result = await bed.lk(['convert', 'letterboxd'], { env: { TZ: 'Asia/Tokyo' } });
    expect(result.code).toBe(0);
    const rows = csv(result.stdout);
    const films = new Map(entriesOf('film').map((entry) => [entry.id as string, entry]));
    const expected = exported.history
      .filter((event) => event.kind === 'FILM_SEEN' && event.date !== null && films.has(event.entryId))
      .map((event) => {
        const film = films.get(event.entryId)!;
        return [
          film.work.sourceId,
          film.work.title,
          String(film.work.year),
          localDay(event.date, 'Asia/Tokyo'),
          film.rating === null ? '' : String(film.rating / 2),
          String(event.cycle > 1),
        ];
      });
    const diary = rows
      .filter((row) => row.WatchedDate !== '')
      .map((row) => [row.tmdbID, row.Title, row.Year, row.WatchedDate, row.Rating, row.Rewatch]);
    expect(expected.length).toBeGreaterThan(10);
    expect(diary.sort()).toEqual(expected.sort());
    expect(rows.some((row) => row.Rewatch === 'true')).toBe(true);
    expect(rows.some((row) => row.Title === 'Amélie')).toBe(true);
    expect(result.stdout).not.toContain('undefined');
  });

  it('films watched only undated get one row without a date, and the summary says which scale was read', async () => {
    const result = await bed.lk(['convert', 'letterboxd']);
    const undatedOnly = entriesOf('film').filter((film) => {
      const watches = exported.history.filter((event) => event.entryId === film.id && event.kind === 'FILM_SEEN');
      return watches.length > 0 && watches.every((event) => event.date === null);
    });
    expect(undatedOnly.length).toBeGreaterThan(0);
    const rows = csv(result.stdout);
    for (const film of undatedOnly) {
      expect(rows.filter((row) => row.tmdbID === film.work.sourceId).map((row) => [row.WatchedDate, row.Rewatch])).toEqual([['', '']]);
    }
    expect(result.stderr).toMatch(/^lk: letterboxd: \d+ rows written$/m);
    expect(result.stderr).toContain('ratings read on a 10-point scale (detected: the highest of');
    expect(result.stderr).toMatch(/left out \d+ entries that are not films/);
  });

  it('-o FILE writes the file whole, private, and names it on stderr; nothing on stdout', async () => {
    const dir = outDir();
    const file = join(dir, 'letterboxd.csv');
    const result = await bed.lk(['convert', 'letterboxd', '-o', file]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').split('\n')[0]).toBe('LetterboxdURI,tmdbID,imdbID,Title,Year,WatchedDate,Rating,Rewatch,Tags,Review');
    expect(result.stderr).toContain(`lk: wrote ${file}`);
  });
});

describe('lk convert goodreads', () => {
  it('writes every book with its author, shelf from the phase, 0–5 rating, pages and ISBN cells as Goodreads writes them', async () => {
    const result = await bed.lk(['convert', 'goodreads']);
    expect(result.code).toBe(0);
    const rows = csv(result.stdout);
    const books = entriesOf('book');
    expect(rows).toHaveLength(books.length);
    const shelf: Record<string, string> = { PLANNED: 'to-read', IN_PROGRESS: 'currently-reading', DONE: 'read', DROPPED: 'did-not-finish' };
    for (const book of books) {
      const row = rows.find((r) => r.Title === book.work.title);
      expect(row, book.work.title).toBeDefined();
      expect(row).toMatchObject({
        Author: book.work.authors[0],
        'Additional Authors': book.work.authors.slice(1).join(', '),
        ISBN: '=""',
        ISBN13: '=""',
        'My Rating': book.rating === null ? '0' : String(Math.max(1, Math.round(book.rating / 2))),
        'Number of Pages': String(book.work.pages),
        'Year Published': String(book.work.year),
        'Exclusive Shelf': shelf[book.phase],
        'Private Notes': book.notes ?? '',
      });
      if (book.phase === 'DONE') expect(row!['Read Count']).not.toBe('0');
    }
    // The 150-character showcase title, with its comma, survives the round trip.
    expect(rows.some((row) => row.Title.length >= 100 && row.Title.includes(','))).toBe(true);
  });
});

describe('lk convert yamtrack', () => {
  it('writes every entry but albums with Yamtrack statuses, scores, progress and TMDB/IGDB ids', async () => {
    const result = await bed.lk(['convert', 'yamtrack']);
    expect(result.code).toBe(0);
    const rows = csv(result.stdout);
    const kept = exported.library.filter((entry) => entry.work.type !== 'album');
    expect(rows).toHaveLength(kept.length);
    const status: Record<string, string> = { PLANNED: 'Planning', IN_PROGRESS: 'In progress', DONE: 'Completed', DROPPED: 'Dropped' };
    const type: Record<string, string> = { film: 'movie', series: 'tv', anime: 'anime', game: 'game', book: 'book' };
    kept.forEach((entry, index) => {
      const row = rows[index]!;
      expect(row.title).toBe(entry.work.title);
      expect(row.media_type).toBe(type[entry.work.type]);
      expect(row.status).toBe(status[entry.phase]);
      expect(row.score).toBe(entry.rating === null ? '' : entry.rating.toFixed(1));
      expect(row.notes).toBe(entry.notes ?? '');
      const catalogued = ['film', 'series', 'game'].includes(entry.work.type);
      expect([row.media_id, row.source]).toEqual(catalogued ? [entry.work.sourceId, entry.work.source] : ['', '']);
      if (entry.work.type === 'series' || entry.work.type === 'anime') expect(row.progress).toBe(String(entry.progress.episodes));
    });
    expect(rows.some((row) => row.notes.includes('\n') && row.notes.includes('"') && row.notes.includes(','))).toBe(true);
    const albums = exported.library.length - kept.length;
    expect(result.stderr).toContain(`  ${albums} albums (Yamtrack has no music)`);
  });

  it('--strict exits 1 when anything was skipped, after writing the file', async () => {
    const file = join(outDir(), 'yamtrack.csv');
    const result = await bed.lk(['convert', 'yamtrack', '--strict', '-o', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^lk: --strict: \d+ skipped/m);
    expect(existsSync(file)).toBe(true);
  });

  it('--domain GAMES keeps only games, and --strict passes when nothing was skipped', async () => {
    const result = await bed.lk(['convert', 'yamtrack', '--domain', 'games', '--strict']);
    expect(result.code).toBe(0);
    const rows = csv(result.stdout);
    expect(rows.map((row) => row.media_type)).toEqual(entriesOf('game').map(() => 'game'));
    expect(rows.filter((row) => /^\d+:\d{2}$/.test(row.progress))).toHaveLength(rows.length);
  });
});

describe('lk convert mal', () => {
  it('writes MAL XML with every anime: the sandbox’s are AniList works, so no MAL id and the summary says so', async () => {
    const result = await bed.lk(['convert', 'mal']);
    expect(result.code).toBe(0);
    const doc = new XMLParser({ parseTagValue: false }).parse(result.stdout) as { myanimelist: { myinfo: Json; anime: Json[] | Json } };
    const anime = ([] as Json[]).concat(doc.myanimelist.anime);
    const expected = entriesOf('anime');
    expect(anime).toHaveLength(expected.length);
    const malStatus = (entry: Json) =>
      entry.status === 'UP_TO_DATE'
        ? 'Watching'
        : ({ PLANNED: 'Plan to Watch', IN_PROGRESS: 'Watching', DONE: 'Completed', DROPPED: 'Dropped' } as Record<string, string>)[entry.phase];
    expected.forEach((entry, index) => {
      expect(anime[index]).toMatchObject({
        series_animedb_id: '0',
        series_title: entry.work.title,
        my_status: malStatus(entry),
        my_watched_episodes: String(entry.progress?.episodes ?? 0),
        my_score: String(entry.rating ?? 0),
        update_on_import: '1',
      });
    });
    expect(doc.myanimelist.myinfo.user_total_anime).toBe(String(expected.length));
    expect(result.stderr).toContain(`${expected.length} anime without a MyAnimeList id`);
  });
});

describe('lk convert: refusals and sources', () => {
  it('exits 1 and writes no file when nothing at all can be written', async () => {
    const file = join(outDir(), 'none.xml');
    const result = await bed.lk(['convert', 'mal', '--since', '2099-01-01', '-o', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('lk: nothing to write for mal');
    expect(existsSync(file)).toBe(false);
  });

  it.each([
    [['convert', 'imdb']],
    [['convert', 'letterboxd', '--since', '2026-02-30']],
    [['convert', 'goodreads', '--rating-scale', '7']],
    [['convert', 'letterboxd', '--domain', 'BOOKS']],
    [['convert', 'yamtrack', '--domain', 'FILMS']],
  ])('%j is a usage error before any request', async (args) => {
    await expectRefusedBeforeAnyRequest(bed, args);
  });

  it('a mirror this Node cannot read is said on stderr and the export is used; --db on it is an error', async () => {
    const data = outDir();
    mkdirSync(data, { recursive: true });
    writeFileSync(join(data, 'default.db'), 'not a database');
    const fallback = await bed.lk(['convert', 'goodreads'], { env: { LK_DATA_DIR: data } });
    expect(fallback.code).toBe(0);
    expect(fallback.stderr).toMatch(/lk: not using the mirror: .*; reading the export instead/);
    expect(csv(fallback.stdout)).toHaveLength(entriesOf('book').length);
    const explicit = await bed.lk(['convert', 'goodreads', '--db', join(data, 'default.db')]);
    expect(explicit.code).toBe(1);
    // Node 20 has no node:sqlite; a later Node finds the file is no database. Either way one clear line, exit 1.
    expect(explicit.stderr).toMatch(
      /^lk: (reading the mirror needs Node 22\.13 or later \(for its built-in SQLite, node:sqlite\)|cannot (open|read) the mirror .*default\.db)/m,
    );
  });
});

describe('lk convert letterboxd from an independent server with a large diary', () => {
  // UUID ids, the title under work.name, the year in releaseDate, entries linked by entry.id, ratings out of 100,
  // and enough reviewed watches to pass Letterboxd's 1 MB import limit.
  const FILMS = 6000;
  const tricky = 'Crouching, "Tiger"\nHidden Дракон';
  const review = 'A long review, with "quotes", commas and ünïcode. '.repeat(4);
  const entries: Json[] = [];
  const history: Json[] = [];
  const reviews: Json[] = [];
  for (let n = 0; n < FILMS; n += 1) {
    const id = randomUUID();
    entries.push({
      id,
      work: {
        id: randomUUID(),
        source: 'tmdb',
        sourceId: String(100_000 + n),
        type: 'film',
        name: n === 0 ? tricky : `Film ${n}`,
        releaseDate: '2001-04-25',
      },
      status: 'COMPLETED',
      phase: 'DONE',
      rating: n % 101,
    });
    history.push({ id: randomUUID(), entry: { id }, kind: 'FILM_SEEN', date: '2025-06-01T22:30:00.000Z', cycle: 1 });
    reviews.push({ id: randomUUID(), entry: { id }, body: review });
  }
  let api: Awaited<ReturnType<typeof startFakeApi>>;
  let env: Record<string, string>;

  beforeAll(async () => {
    const body = JSON.stringify({ exportedAt: new Date().toISOString(), account: { username: 'indie' }, library: entries, history, reviews });
    api = await startFakeApi((req, res) => {
      if (req.url?.startsWith('/v1/me')) return sendJson(res, 200, { account: { username: 'indie' } });
      if (req.url?.startsWith('/v1/export')) return sendJson(res, 200, body);
      return sendJson(res, 404, { code: 'not_found' });
    });
    const home = tempHome();
    env = {
      LK_BASE_URL: api.url,
      LK_API_KEY: `lk_${'Q'.repeat(43)}abc123`,
      LK_CONFIG_DIR: home.configDir,
      LK_CACHE_DIR: home.cacheDir,
      TZ: 'Europe/Paris',
    };
  });

  afterAll(async () => {
    await api.close();
  });

  it('refuses to print a file over 1 MB on stdout, and says to use -o', async () => {
    const result = await runLk(['convert', 'letterboxd'], { env });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/over Letterboxd's 1 MB import limit/);
    expect(result.stderr).toMatch(/Use -o FILE: lk writes FILE-1\.csv/);
  });

  it('-o FILE writes FILE-1.csv, FILE-2.csv…, each under 1,000,000 bytes with its header, every row once', async () => {
    const dir = outDir();
    const result = await runLk(['convert', 'letterboxd', '-o', join(dir, 'films.csv')], { env });
    expect(result.code).toBe(0);
    const files = readdirSync(dir).sort();
    expect(files.length).toBeGreaterThanOrEqual(2);
    expect(files).toEqual(files.map((_, index) => `films-${index + 1}.csv`).sort());
    const rows: Row[] = [];
    for (const name of files) {
      const text = readFileSync(join(dir, name), 'utf8');
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1_000_000);
      expect(text.startsWith('LetterboxdURI,tmdbID,imdbID,Title,Year,WatchedDate,Rating,Rewatch,Tags,Review\n')).toBe(true);
      rows.push(...csv(text));
    }
    expect(rows).toHaveLength(FILMS);
    expect(new Set(rows.map((row) => row.tmdbID)).size).toBe(FILMS);
    // 22:30 UTC on June 1st is June 2nd in Paris; 100 of 100 is five stars, 0 and 1 of 100 half a star.
    expect(rows.find((row) => row.tmdbID === '100000')).toMatchObject({
      Title: tricky,
      Year: '2001',
      WatchedDate: '2025-06-02',
      Rating: '0.5',
      Rewatch: 'false',
      Review: review,
    });
    expect(rows.find((row) => row.tmdbID === '100100')!.Rating).toBe('5');
    expect(rows.find((row) => row.tmdbID === '100050')!.Rating).toBe('2.5');
    expect(result.stderr).toContain('ratings read on a 100-point scale (detected: the highest of 6000 ratings is 100');
    expect(result.stderr).toContain(`lk: wrote ${join(dir, 'films-1.csv')}, `);
  });

  it('a numbered file left by an earlier, longer conversion is pointed out, not passed off as part of this one', async () => {
    const dir = outDir();
    const leftover = join(dir, 'films-9.csv');
    for (let n = 3; n <= 9; n += 1) writeFileSync(join(dir, `films-${n}.csv`), 'old\n');
    const result = await runLk(['convert', 'letterboxd', '-o', join(dir, 'films.csv')], { env });
    expect(result.code).toBe(0);
    const count = /^lk: wrote (.*)$/m.exec(result.stderr)![1]!.split(', ').length;
    expect(count).toBeLessThan(9);
    expect(result.stderr).toContain(`lk: note: ${join(dir, `films-${count + 1}.csv`)} is from an earlier conversion, not this one`);
    expect(readFileSync(leftover, 'utf8')).toBe('old\n');
  });
});
