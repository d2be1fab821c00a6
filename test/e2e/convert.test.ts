import { parse } from 'csv-parse/sync';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startFakeApi } from './fake-api.js';
import { expectRefusedBeforeAnyRequest, runLk, startTestBed, tempHome, type TestBed } from './harness.js';
import { goodreadsViolations, yamtrackViolations } from '../unit/importer-contracts.js';

type Row = Record<string, string>;
type Json = Record<string, any>;

let bed: TestBed;
let exported: { library: Json[]; history: Json[]; reviews: Json[] };

beforeAll(async () => {
  bed = await startTestBed({ rateLimit: 0 });
  made.push(bed.home.root);
  // The same cached export every lk convert below reads (one export an hour): the data to check the files against.
  const result = await bed.lk(['export']);
  expect(result.code).toBe(0);
  exported = JSON.parse(result.stdout) as typeof exported;
});

const made: string[] = [];

afterAll(async () => {
  await bed.sandbox.close();
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function csv(text: string): Row[] {
  return parse(text, { columns: true }) as Row[];
}

function outDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lk-convert-'));
  made.push(dir);
  return dir;
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
    const shelf: Record<string, string> = { PLANNED: 'to-read', IN_PROGRESS: 'currently-reading', DONE: 'read', DROPPED: 'currently-reading' };
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
    expect(goodreadsViolations(result.stdout)).toEqual([]);
    // The sandbox's books have no ISBN: every one can only be matched by title and author, and the summary says so.
    expect(result.stderr).toContain(`lk: ${books.length} rows the importer can only match by title:`);
  });
});

describe('lk convert yamtrack', () => {
  it('writes the TMDB and IGDB entries Yamtrack takes whole; AniList anime and Open Library works go to FILE-unmatched.csv', async () => {
    const dir = outDir();
    const result = await bed.lk(['convert', 'yamtrack', '-o', join(dir, 'yamtrack.csv')]);
    expect(result.code).toBe(0);
    const content = readFileSync(join(dir, 'yamtrack.csv'), 'utf8');
    expect(yamtrackViolations(content)).toEqual([]);
    const rows = csv(content);
    const status: Record<string, string> = { PLANNED: 'Planning', IN_PROGRESS: 'In progress', DONE: 'Completed', DROPPED: 'Dropped' };
    const type: Record<string, string> = { film: 'movie', series: 'tv', game: 'game' };
    const catalogued = exported.library.filter((entry) => ['film', 'series', 'game'].includes(entry.work.type));
    for (const entry of catalogued) {
      const own = rows.filter((row) => row.media_id === entry.work.sourceId && row.media_type === type[entry.work.type]);
      expect(own.length, entry.work.title).toBeGreaterThan(0);
      // The entry's own row is the last one (earlier rows are rewatches and replays).
      expect(own.at(-1)).toMatchObject({
        source: entry.work.source,
        title: entry.work.title,
        status: entry.status === 'UP_TO_DATE' ? 'In progress' : status[entry.phase],
        score: entry.rating === null ? '' : entry.rating.toFixed(1),
        notes: entry.notes ?? '',
      });
    }
    // One episode row per episode watch of a TMDB show.
    const shows = new Set(entriesOf('series').map((entry) => entry.id as string));
    const watches = exported.history.filter((event) => event.kind === 'EPISODE_SEEN' && shows.has(event.entryId));
    expect(rows.filter((row) => row.media_type === 'episode')).toHaveLength(watches.length);
    const unmatched = csv(readFileSync(join(dir, 'yamtrack-unmatched.csv'), 'utf8'));
    const searched = [...entriesOf('anime'), ...entriesOf('book')];
    expect(unmatched.map((row) => row.title).sort()).toEqual(searched.map((entry) => entry.work.title).sort());
    expect(result.stderr).toContain(
      `lk: ${searched.length} rows the importer would fail on or drop, written to ${join(dir, 'yamtrack-unmatched.csv')}:`,
    );
    expect(result.stderr).toContain(`  ${exported.library.length - catalogued.length - searched.length} albums (Yamtrack has no music)`);
  });

  it('an unmatched file left by an earlier conversion is pointed out when this one sets nothing aside', async () => {
    const dir = outDir();
    writeFileSync(join(dir, 'games-unmatched.csv'), 'old\n');
    const result = await bed.lk(['convert', 'yamtrack', '--domain', 'GAMES', '-o', join(dir, 'games.csv')]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`lk: note: ${join(dir, 'games-unmatched.csv')} is from an earlier conversion, not this one`);
    expect(readFileSync(join(dir, 'games-unmatched.csv'), 'utf8')).toBe('old\n');
  });

  it('--strict exits 1 when rows were skipped or set aside, after writing the file', async () => {
    const file = join(outDir(), 'yamtrack.csv');
    const result = await bed.lk(['convert', 'yamtrack', '--strict', '-o', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^lk: --strict: \d+ rows skipped, set aside, guessed or matched by title/m);
    expect(existsSync(file)).toBe(true);
  });

  it('--domain GAMES keeps only games, and --strict passes when every row is matched by id', async () => {
    const result = await bed.lk(['convert', 'yamtrack', '--domain', 'games', '--strict']);
    expect(result.code).toBe(0);
    const rows = csv(result.stdout);
    expect(new Set(rows.map((row) => row.title))).toEqual(new Set(entriesOf('game').map((entry) => entry.work.title)));
    // Each game's own row has its play time (h:mm); a replay's earlier run is a row of its own with none.
    expect(rows.filter((row) => row.media_type === 'game' && /^\d+:\d{2}$/.test(row.progress))).toHaveLength(entriesOf('game').length);
    expect(rows.every((row) => row.media_type === 'game')).toBe(true);
  });
});

describe('lk convert mal', () => {
  it('the sandbox’s anime are AniList works with no MAL id: nothing MAL can match, so exit 1, no MAL file, every anime in the unmatched one', async () => {
    const dir = outDir();
    const result = await bed.lk(['convert', 'mal', '-o', join(dir, 'anime.xml')]);
    expect(result.code).toBe(1);
    expect(readdirSync(dir)).toEqual(['anime-unmatched.csv']);
    expect(readFileSync(join(dir, 'anime-unmatched.csv'), 'utf8').trim().split('\n')).toHaveLength(entriesOf('anime').length + 1);
    const anime = entriesOf('anime').length;
    expect(result.stderr).toContain(`  ${anime} anime without a MyAnimeList id (from another catalogue): MAL matches on the id alone`);
    expect(result.stderr).toContain('lk: nothing to write for mal');
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
      /^lk: (reading the mirror needs Node 22\.13 or later \(for its built-in SQLite, node:sqlite\)|the mirror .*default\.db is not an SQLite database)/m,
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
    made.push(home.root);
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
    // 22:30 UTC on June 1st is June 2nd in Paris; 100 of 100 is five stars, 1 of 100 half a star, 0 no rating.
    expect(rows.find((row) => row.tmdbID === '100001')!.Rating).toBe('0.5');
    expect(rows.find((row) => row.tmdbID === '100000')).toMatchObject({
      Title: tricky,
      Year: '2001',
      WatchedDate: '2025-06-02',
      Rating: '',
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

describe('lk convert on the second data set: the alt variant’s listings (UUID ids, no phase, other field names)', () => {
  // What an independent server sends in its listings (and what lk sync keeps of them), served as its export.
  let alt: TestBed;
  let api: Awaited<ReturnType<typeof startFakeApi>>;
  let env: Record<string, string>;

  beforeAll(async () => {
    alt = await startTestBed({ rateLimit: 0, variant: 'alt' });
    const listing = async (command: string) => JSON.parse((await alt.lk([command, '--all', '--json'])).stdout) as Json[];
    const body = JSON.stringify({ library: await listing('library'), history: await listing('history'), reviews: await listing('reviews') });
    api = await startFakeApi((req, res) => {
      if (req.url?.startsWith('/v1/me')) return sendJson(res, 200, { account: { username: 'alt' } });
      if (req.url?.startsWith('/v1/export')) return sendJson(res, 200, body);
      return sendJson(res, 404, { code: 'not_found' });
    });
    const home = tempHome();
    made.push(home.root, alt.home.root);
    env = { LK_BASE_URL: api.url, LK_API_KEY: `lk_${'Q'.repeat(43)}abc123`, LK_CONFIG_DIR: home.configDir, LK_CACHE_DIR: home.cacheDir };
  });

  afterAll(async () => {
    await api.close();
    await alt.sandbox.close();
  });

  it('Goodreads: every book on the shelf of its status (no phase sent), with the same title, author and rating', async () => {
    const result = await bed.lk(['convert', 'goodreads'], { env });
    expect(result.code).toBe(0);
    expect(goodreadsViolations(result.stdout)).toEqual([]);
    const pick = (rows: Row[]) => rows.map((row) => [row.Title, row.Author, row['My Rating'], row['Exclusive Shelf']]).sort();
    expect(pick(csv(result.stdout))).toEqual(pick(csv((await bed.lk(['convert', 'goodreads'])).stdout)));
  });

  it('Yamtrack: play time from progress {current, unit}, and the same works set aside as on the sandbox', async () => {
    const dir = outDir();
    const result = await bed.lk(['convert', 'yamtrack', '-o', join(dir, 'alt.csv')], { env });
    expect(result.code).toBe(0);
    const content = readFileSync(join(dir, 'alt.csv'), 'utf8');
    expect(yamtrackViolations(content)).toEqual([]);
    await bed.lk(['convert', 'yamtrack', '-o', join(dir, 'default.csv')]);
    const games = (file: string) =>
      csv(readFileSync(join(dir, file), 'utf8'))
        .filter((row) => row.progress !== '' && row.media_type === 'game')
        .map((row) => [row.media_id, row.progress, row.status])
        .sort();
    expect(games('alt.csv')).toEqual(games('default.csv'));
    const setAside = (file: string) =>
      csv(readFileSync(join(dir, file), 'utf8'))
        .map((row) => [row.title, row.media_type, row.progress])
        .sort();
    expect(setAside('alt-unmatched.csv')).toEqual(setAside('default-unmatched.csv'));
  });
});
