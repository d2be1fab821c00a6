import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { all, call, clock, ISO_MS, NOW } from './helpers.js';

const DAY = 86_400_000;
let sandbox: Sandbox;
const time = clock(NOW);

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: 0, now: time.now });
});
afterAll(() => sandbox.close());

describe('GET /v1/calendar', () => {
  it('is {items} and not an envelope', async () => {
    const response = await call(sandbox, '/v1/calendar');
    expect(Object.keys(response.body)).toEqual(['items']);
  });

  it('calendar holds at most 60 episodes within 90 days, none from dropped shows', async () => {
    const { items } = (await call(sandbox, '/v1/calendar')).body;
    expect(items).toHaveLength(60); // the demo account follows enough shows for the cap to bite
    const startOfToday = Math.floor(NOW / DAY) * DAY;
    const airs = items.map((item: any) => Date.parse(item.airsAt));
    expect(airs).toEqual([...airs].sort((a, b) => a - b));
    for (const at of airs) {
      expect(at).toBeGreaterThanOrEqual(startOfToday);
      expect(at).toBeLessThanOrEqual(NOW + 90 * DAY);
    }
    const library = await all(sandbox, '/v1/library');
    const dropped = new Set(library.filter((entry: any) => entry.status === 'DROPPED').map((entry: any) => entry.work.id));
    const droppedAiring = library.filter((entry: any) => entry.status === 'DROPPED' && entry.work.airing);
    expect(droppedAiring.length).toBeGreaterThan(0); // there is a dropped show with upcoming episodes to leave out
    expect(items.some((item: any) => dropped.has(item.show.id))).toBe(false);
  });

  it('items carry id, show, season, episode, title, airsAt, episodesBehind and url', async () => {
    const [item] = (await call(sandbox, '/v1/calendar')).body.items;
    expect(Object.keys(item)).toEqual(expect.arrayContaining(['id', 'show', 'season', 'episode', 'title', 'airsAt', 'episodesBehind', 'url']));
    expect(item.airsAt).toMatch(ISO_MS);
    expect(['series', 'anime']).toContain(item.show.type);
    expect(Number.isInteger(item.episodesBehind) && item.episodesBehind >= 0).toBe(true);
    expect(item.url).toMatch(/^https:\/\/app\.lk\.example\//);
  });

  it('episodesBehind counts aired episodes not yet watched, and grows as time passes', async () => {
    const library = await all(sandbox, '/v1/library');
    const upToDate = library.find((entry: any) => entry.status === 'UP_TO_DATE' && entry.work.airing);
    const before = (await call(sandbox, '/v1/calendar')).body.items.find((item: any) => item.show.id === upToDate.work.id);
    expect(before.episodesBehind).toBeLessThanOrEqual(1);
    time.advance(21 * DAY);
    try {
      const after = (await call(sandbox, '/v1/calendar')).body.items.find((item: any) => item.show.id === upToDate.work.id);
      expect(after.episodesBehind).toBe(before.episodesBehind + 3);
    } finally {
      time.set(NOW);
    }
  });

  // Issue 44: "Last Mirror 1/30 ep" was 30 behind, and a show whose work had 1 episode aired S01E02 and S01E03.
  it('agrees with the library at any time: behind ≤ total − watched, no episode past the work’s count or season', async () => {
    const library = await all(sandbox, '/v1/library');
    const byId = new Map(library.map((entry: any) => [entry.id, entry]));
    try {
      for (const later of [0, 5 * 3_600_000, 23 * 3_600_000, 3 * DAY, 40 * DAY, 200 * DAY]) {
        time.set(NOW + later);
        const { items } = (await call(sandbox, '/v1/calendar')).body;
        for (const item of items) {
          const entry = byId.get(item.entryId) as any;
          const { episodes: watched, total } = entry.progress;
          expect(total, item.id).toBe(item.show.episodes);
          expect(item.episodesBehind, `${item.id} at +${later} ms`).toBeLessThanOrEqual(total - watched);
          expect(item.season, item.id).toBe(item.show.seasons);
          const perSeason = item.show.episodes / item.show.seasons;
          expect(item.episode, item.id).toBeLessThanOrEqual(perSeason);
        }
      }
    } finally {
      time.set(NOW);
    }
  });

  it('every show in the library has seen no more than had aired, and an airing one has an episode still to air', async () => {
    const library = await all(sandbox, '/v1/library');
    const shows = library.filter((entry: any) => entry.work.type === 'series' || entry.work.type === 'anime');
    expect(shows.filter((entry: any) => entry.work.airing).length).toBeGreaterThan(10);
    for (const entry of shows) {
      expect(entry.progress.total, entry.id).toBe(entry.work.episodes);
      expect(entry.progress.episodes, entry.id).toBeLessThanOrEqual(entry.work.episodes);
      if (entry.work.airing) expect(entry.progress.episodes, entry.id).toBeLessThan(entry.work.episodes);
    }
  });

  it('respects domain (only MEDIA has episodes) and lang', async () => {
    expect((await call(sandbox, '/v1/calendar?domain=MEDIA')).body.items).toHaveLength(60);
    expect((await call(sandbox, '/v1/calendar?domain=BOOKS')).body.items).toEqual([]);
    expect((await call(sandbox, '/v1/calendar?domain=GAMES', { key: 'nogames' })).status).toBe(403);
    const en = (await call(sandbox, '/v1/calendar?lang=en')).body.items.map((item: any) => item.show.title);
    const fr = (await call(sandbox, '/v1/calendar?lang=fr')).body.items.map((item: any) => item.show.title);
    expect(fr).not.toEqual(en);
  });
});
