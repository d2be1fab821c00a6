import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { all, call, clock, ISO_MS, NOW } from './helpers.js';

interface Entry {
  id: string;
  status: string;
  phase: string;
  rating: number | null;
  notes: string | null;
  dates: { added: string; started: string | null; finished: string | null; updated: string };
  progress: Record<string, number> | null;
  url: string;
  work: {
    id: string;
    type: string;
    domain: string;
    title: string;
    source: string;
    sourceId: string;
    url: string;
    year: number;
    originalTitle?: string;
  };
}

let sandbox: Sandbox;
let library: Entry[];
const time = clock(NOW);

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: 0, now: time.now });
  library = await all<Entry>(sandbox, '/v1/library');
});
afterAll(() => sandbox.close());

const ids = (entries: Entry[]) => entries.map((entry) => entry.id);

describe('GET /v1/library paging', () => {
  it('answers the envelope {items, hasMore, total} with 20 items by default', async () => {
    const response = await call(sandbox, '/v1/library');
    expect(Object.keys(response.body).sort()).toEqual(['hasMore', 'items', 'total']);
    expect(response.body.items).toHaveLength(20);
    expect(response.body.hasMore).toBe(true);
    expect(response.body.total).toBe(250);
  });

  it('following hasMore yields every entry of the account exactly once', () => {
    expect(library).toHaveLength(250);
    expect(ids(library)).toEqual(sandbox.entryIds('demo'));
  });

  it('a page beyond the end is empty with hasMore false', async () => {
    const response = await call(sandbox, '/v1/library?page=99&limit=100');
    expect(response.body).toEqual({ items: [], hasMore: false, total: 250 });
    const last = await call(sandbox, '/v1/library?page=3&limit=100');
    expect([last.body.items.length, last.body.hasMore]).toEqual([50, false]);
  });

  it.each([
    ['limit', '0'],
    ['limit', '101'],
    ['limit', 'abc'],
    ['limit', '1.5'],
    ['limit', '-1'],
    ['page', '0'],
    ['page', 'abc'],
    ['page', '1.5'],
    ['page', ''],
  ])('%s=%j gets 400 request.invalid_parameter naming the parameter', async (name, value) => {
    const response = await call(sandbox, `/v1/library?${name}=${encodeURIComponent(value)}`);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('request.invalid_parameter');
    expect(response.body.parameter).toBe(name);
    expect(response.body.message).toContain(name);
  });

  it('limit=1 and limit=100 are accepted', async () => {
    expect((await call(sandbox, '/v1/library?limit=1')).body.items).toHaveLength(1);
    expect((await call(sandbox, '/v1/library?limit=100')).body.items).toHaveLength(100);
  });
});

describe('entries', () => {
  it('carry id, work, status, phase, rating, notes, dates, progress and url', () => {
    for (const entry of library) {
      expect(typeof entry.id).toBe('string');
      expect(entry.url).toBe(`https://app.lk.example/library/${entry.id}`);
      expect(entry.rating === null || (Number.isInteger(entry.rating) && entry.rating >= 1 && entry.rating <= 10)).toBe(true);
      expect(entry.notes === null || typeof entry.notes === 'string').toBe(true);
      for (const value of Object.values(entry.dates)) if (value !== null) expect(value).toMatch(ISO_MS);
      expect(entry.dates.added).not.toBeNull();
    }
  });

  it('works carry id, source, sourceId, url, type, domain, title and year from five catalogues', () => {
    const sources: Record<string, string> = {
      film: 'tmdb',
      series: 'tmdb',
      anime: 'anilist',
      game: 'igdb',
      book: 'openlibrary',
      album: 'musicbrainz',
    };
    const domains: Record<string, string> = { film: 'MEDIA', series: 'MEDIA', anime: 'MEDIA', game: 'GAMES', book: 'BOOKS', album: 'MUSIC' };
    for (const { work } of library) {
      expect(work.source).toBe(sources[work.type]);
      expect(work.domain).toBe(domains[work.type]);
      expect(typeof work.sourceId).toBe('string');
      expect(work.url).toBe(`https://app.lk.example/works/${work.id}`);
      expect(Number.isInteger(work.year)).toBe(true);
    }
    expect(new Set(library.map((entry) => entry.work.type))).toEqual(new Set(Object.keys(sources)));
  });

  it('progress is episodes for series and anime, pages for books, minutes for games, null for films and albums', () => {
    for (const { work, progress } of library) {
      if (work.type === 'series' || work.type === 'anime') expect(Object.keys(progress!).sort()).toEqual(['episodes', 'total']);
      else if (work.type === 'book') expect(Object.keys(progress!).sort()).toEqual(['pages', 'total']);
      else if (work.type === 'game') expect(Object.keys(progress!)).toEqual(['minutes']);
      else expect(progress).toBeNull();
    }
  });

  it('each status maps to its phase per SPEC §3, and MUSIC has only TO_LISTEN and LISTENED', () => {
    const phases: Record<string, Record<string, string>> = {
      MEDIA: { PLANNED: 'PLANNED', WATCHING: 'IN_PROGRESS', COMPLETED: 'DONE', UP_TO_DATE: 'DONE', DROPPED: 'DROPPED' },
      GAMES: { BACKLOG: 'PLANNED', PLAYING: 'IN_PROGRESS', COMPLETED: 'DONE', DROPPED: 'DROPPED' },
      BOOKS: { TO_READ: 'PLANNED', READING: 'IN_PROGRESS', READ: 'DONE', DROPPED: 'DROPPED' },
      MUSIC: { TO_LISTEN: 'PLANNED', LISTENED: 'DONE' },
    };
    const seen = new Set<string>();
    for (const entry of library) {
      expect(phases[entry.work.domain]![entry.status]).toBe(entry.phase);
      seen.add(`${entry.work.domain}:${entry.status}`);
    }
    expect(seen.size).toBe(15); // every status of every domain occurs (5 + 4 + 4 + 2)
  });

  it('include awkward values: accents, CJK, emoji, a very long title, notes with a comma, a quote and a newline', () => {
    const titles = library.map((entry) => `${entry.work.title} ${entry.work.originalTitle ?? ''}`).join('\n');
    expect(titles).toMatch(/é/);
    expect(titles).toMatch(/東京/);
    expect(titles).toMatch(/\p{Extended_Pictographic}/u);
    expect(library.some((entry) => entry.work.title.length > 100)).toBe(true);
    expect(library.some((entry) => entry.notes !== null && /,/.test(entry.notes) && /"/.test(entry.notes) && /\n/.test(entry.notes))).toBe(true);
  });

  it('GET /v1/library/{id} returns the entry; an unknown id gets 404 not_found', async () => {
    const entry = library[17]!;
    expect((await call(sandbox, `/v1/library/${entry.id}`)).body).toEqual(entry);
    const missing = await call(sandbox, '/v1/library/nope404');
    expect([missing.status, missing.body.code]).toEqual([404, 'not_found']);
    expect((await call(sandbox, '/v1/library/nope404/history')).status).toBe(404);
  });

  it('an entry of another account is not found', async () => {
    const readerId = sandbox.entryIds('reader')[0]!;
    expect((await call(sandbox, `/v1/library/${readerId}`)).status).toBe(404);
    expect((await call(sandbox, `/v1/library/${readerId}`, { key: 'nogames' })).status).toBe(200);
  });
});

describe('filters', () => {
  it('phase DONE keeps only COMPLETED, UP_TO_DATE, READ and LISTENED', async () => {
    const done = await all<Entry>(sandbox, '/v1/library?phase=DONE');
    expect(done.length).toBe(library.filter((entry) => entry.phase === 'DONE').length);
    expect(new Set(done.map((entry) => entry.status))).toEqual(new Set(['COMPLETED', 'UP_TO_DATE', 'READ', 'LISTENED']));
  });

  it('phase PLANNED keeps PLANNED, BACKLOG, TO_READ and TO_LISTEN', async () => {
    const planned = await all<Entry>(sandbox, '/v1/library?phase=PLANNED');
    expect(new Set(planned.map((entry) => entry.status))).toEqual(new Set(['PLANNED', 'BACKLOG', 'TO_READ', 'TO_LISTEN']));
  });

  it('domain keeps one domain, and the total follows the filter', async () => {
    const response = await call(sandbox, '/v1/library?domain=BOOKS&limit=100');
    expect(response.body.total).toBe(library.filter((entry) => entry.work.domain === 'BOOKS').length);
    expect(response.body.items.every((entry: Entry) => entry.work.domain === 'BOOKS')).toBe(true);
  });

  it('an unknown phase, domain, sort or order gets 400 naming it', async () => {
    for (const [name, value] of [
      ['phase', 'FOO'],
      ['domain', 'FILMS'],
      ['sort', 'year'],
      ['order', 'up'],
      ['domain', 'media'],
    ]) {
      const response = await call(sandbox, `/v1/library?${name}=${value}`);
      expect([response.status, response.body.code, response.body.parameter]).toEqual([400, 'request.invalid_parameter', name]);
    }
  });

  it('a domain the account disabled gets 403 user.domain_disabled carrying the domain', async () => {
    const response = await call(sandbox, '/v1/library?domain=GAMES', { key: 'nogames' });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('user.domain_disabled');
    expect(response.body.domain).toBe('GAMES');
  });

  it('data of a disabled domain appears nowhere for that account', async () => {
    const reader = await all<Entry>(sandbox, '/v1/library', 'nogames');
    expect(reader.length).toBeGreaterThan(50);
    expect(reader.some((entry) => entry.work.domain === 'GAMES')).toBe(false);
    const history = await all(sandbox, '/v1/history', 'nogames');
    expect(history.some((event: any) => event.work.domain === 'GAMES')).toBe(false);
    const lists = await all(sandbox, '/v1/lists', 'nogames');
    for (const list of lists) {
      const full = await call(sandbox, `/v1/lists/${list.id}`, { key: 'nogames' });
      expect(full.body.items.some((item: any) => item.work.domain === 'GAMES')).toBe(false);
    }
    const stats = await call(sandbox, '/v1/stats/summary', { key: 'nogames' });
    expect(Object.keys(stats.body.byDomain)).toEqual(['MEDIA', 'BOOKS', 'MUSIC']);
    const achievements = await all(sandbox, '/v1/profile/achievements', 'nogames');
    expect(achievements.some((achievement: any) => achievement.domain === 'GAMES')).toBe(false);
  });
});

describe('sorting', () => {
  const sorted = (path: string) => all<Entry>(sandbox, `/v1/library?${path}`);
  const fold = (title: string) =>
    title
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase();

  it('the default is added, newest first', () => {
    const added = library.map((entry) => Date.parse(entry.dates.added));
    expect(added).toEqual([...added].sort((a, b) => b - a));
  });

  it('sort=added&order=asc is the exact reverse (oldest first)', async () => {
    expect(ids(await sorted('sort=added&order=asc'))).toEqual(ids(library).reverse());
  });

  it('sort=title is A to Z (case- and accent-insensitive), order=asc reverses it exactly', async () => {
    const az = await sorted('sort=title');
    const keys = az.map((entry) => fold(entry.work.title));
    expect(keys).toEqual([...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(ids(await sorted('sort=title&order=asc'))).toEqual(ids(az).reverse());
  });

  it('sort=rating is best first with ties by id, unrated entries last in both orders', async () => {
    const best = await sorted('sort=rating');
    const rated = best.filter((entry) => entry.rating !== null);
    expect(best.slice(0, rated.length)).toEqual(rated);
    for (let n = 1; n < rated.length; n += 1) {
      const [a, b] = [rated[n - 1]!, rated[n]!];
      expect(a.rating! > b.rating! || (a.rating === b.rating && a.id < b.id)).toBe(true);
    }
    const worst = await sorted('sort=rating&order=asc');
    expect(ids(worst.slice(0, rated.length))).toEqual(ids(rated).reverse());
    expect(worst.slice(rated.length).every((entry) => entry.rating === null)).toBe(true);
  });

  it('sort=finished is most recently finished first, never-finished entries last in both orders', async () => {
    const recent = await sorted('sort=finished');
    const finished = recent.filter((entry) => entry.dates.finished !== null);
    expect(finished.length).toBeGreaterThan(20);
    expect(recent.slice(0, finished.length)).toEqual(finished);
    const times = finished.map((entry) => Date.parse(entry.dates.finished!));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const oldest = await sorted('sort=finished&order=asc');
    expect(ids(oldest.slice(0, finished.length))).toEqual(ids(finished).reverse());
    expect(oldest.slice(finished.length).every((entry) => entry.dates.finished === null)).toBe(true);
  });

  it('pages of a sorted, filtered listing are stable and do not overlap', async () => {
    const whole = await sorted('sort=rating&phase=DONE');
    const pages: Entry[] = [];
    for (let page = 1; page <= Math.ceil(whole.length / 7); page += 1) {
      pages.push(...(await call(sandbox, `/v1/library?sort=rating&phase=DONE&limit=7&page=${page}`)).body.items);
    }
    expect(ids(pages)).toEqual(ids(whole));
  });
});

describe('lang', () => {
  const titleIn = async (lang: string, id: string, key = 'full') =>
    (await call(sandbox, `/v1/library/${id}${lang ? `?lang=${lang}` : ''}`, { key })).body.work.title as string;

  it('film and series titles follow lang; anime keep their anime-catalogue title; games, books and albums one title', async () => {
    const amelie = library.find((entry) => entry.work.title === 'Amélie')!;
    expect(await titleIn('fr', amelie.id)).toBe("Le Fabuleux Destin d'Amélie Poulain");
    expect(await titleIn('it', amelie.id)).toBe('Il favoloso mondo di Amélie');
    expect(await titleIn('en', amelie.id)).toBe('Amélie');
    for (const type of ['anime', 'game', 'book', 'album']) {
      const entry = library.find((candidate) => candidate.work.type === type)!;
      expect(await titleIn('fr', entry.id)).toBe(entry.work.title);
      expect(await titleIn('it', entry.id)).toBe(entry.work.title);
    }
  });

  it('a title never opened in the requested language stays English', async () => {
    const office = library.find((entry) => entry.work.title === 'The Night Shift Office')!;
    expect(await titleIn('fr', office.id)).toBe('The Night Shift Office');
    const fr = await all<Entry>(sandbox, '/v1/library?lang=fr');
    const films = fr.filter((entry) => entry.work.type === 'film');
    const unchanged = films.filter((entry) => entry.work.title === library.find((e) => e.id === entry.id)!.work.title);
    expect(unchanged.length).toBeGreaterThan(0);
    expect(unchanged.length).toBeLessThan(films.length);
  });

  it("without lang, titles follow the account's language (reader: fr)", async () => {
    const amelie = (await all<Entry>(sandbox, '/v1/library?lang=en', 'nogames')).find((entry) => entry.work.title === 'Amélie')!;
    expect(await titleIn('', amelie.id, 'nogames')).toBe("Le Fabuleux Destin d'Amélie Poulain");
  });

  it('work ids are the same for every account', async () => {
    const reader = await all<Entry>(sandbox, '/v1/library?lang=en', 'nogames');
    const demoWorks = new Map(library.map((entry) => [entry.work.id, entry.work]));
    const shared = reader.filter((entry) => demoWorks.has(entry.work.id));
    expect(shared.length).toBeGreaterThan(30);
    for (const entry of shared) expect(entry.work).toEqual(demoWorks.get(entry.work.id));
  });

  it('a lang other than en, fr or it gets 400 request.invalid_parameter', async () => {
    for (const path of ['/v1/library?lang=de', '/v1/me?lang=EN', '/v1/calendar?lang=', '/v1/history?lang=fr-FR']) {
      const response = await call(sandbox, path);
      expect([response.status, response.body.code, response.body.parameter]).toEqual([400, 'request.invalid_parameter', 'lang']);
    }
  });
});
