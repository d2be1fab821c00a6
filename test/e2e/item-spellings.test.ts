import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, sendJson, startFakeApi, type FakeApi } from './fake-api.js';
import { runLkInProcess, tempHome } from './harness.js';

// Issue 58: src/items reads every spelling of a field for every surface. Before, each surface had its own list: the
// calendar's table read `season`/`episode.season` but not `seasonNumber` (the ICS feed did), `show.title`/`work.title`
// but not `showTitle` (the ICS feed did); the ICS feed missed a `season` object ({number}); lk status read a flat
// `season`/`episode` only, lk notify likewise. One instance's calendar, in the spellings each surface used to miss:
// every surface now says S02E05 of the right show.

const FAKE_KEY = `lk_${'Q'.repeat(43)}abc123`;
const NOW = Date.parse('2026-03-02T12:00:00Z');
const AIRS = '2026-03-03T21:00:00Z';

/** One episode, spelt as an instance lk's table did not know would spell it. */
const flatSpellings = { id: 'c1', showTitle: 'Flat Show', seasonNumber: 2, episodeNumber: 5, airDate: AIRS, episodesBehind: 1 };
/** The same, spelt the way lk status and the ICS feed did not know. */
const nestedSpellings = { id: 'c2', show: { id: 'w2', title: 'Nested Show' }, season: { number: 3 }, episode: { number: 7 }, airsAt: AIRS };

let api: FakeApi;
let env: Record<string, string>;

beforeAll(async () => {
  api = await startFakeApi((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/v1/calendar') return sendJson(res, 200, { items: [flatSpellings, nestedSpellings] });
    if (path === '/v1/me') return sendJson(res, 200, { account: { username: 'someone' } });
    sendJson(res, 200, envelope([]));
  });
  const home = tempHome();
  env = { LK_BASE_URL: api.url, LK_API_KEY: FAKE_KEY, LK_CONFIG_DIR: home.configDir, LK_CACHE_DIR: home.cacheDir };
});

afterAll(async () => {
  await api.close();
});

const lk = (args: string[]) => runLkInProcess(args, { env: { ...env, COLUMNS: '160' }, now: () => NOW });

describe('a calendar item’s show, season and episode, under every spelling, on every surface', () => {
  it('lk calendar (its table): the show and S02E05 for the flat spellings, S03E07 for the nested ones', async () => {
    const result = await lk(['calendar', '--format', 'table', '--no-color']);
    expect(result.code, result.stderr).toBe(0);
    const rows = result.stdout.trim().split('\n').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/Flat Show +S02E05/);
    expect(rows[1]).toMatch(/Nested Show +S03E07/);
  });

  it('lk calendar --format ics: S02E05 and S03E07 in the summaries', async () => {
    const result = await lk(['calendar', '--format', 'ics']);
    expect(result.code, result.stderr).toBe(0);
    const summaries = result.stdout.split('\r\n').filter((line) => line.startsWith('SUMMARY:'));
    expect(summaries).toEqual(['SUMMARY:Flat Show · S02E05', 'SUMMARY:Nested Show · S03E07']);
  });

  it('lk status --json: the upcoming episodes with their season and episode', async () => {
    const result = await lk(['status', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const status = JSON.parse(result.stdout) as { upcoming: { title: string | null; season: number | null; episode: number | null }[] };
    expect(status.upcoming.map(({ title, season, episode }) => ({ title, season, episode }))).toEqual([
      { title: 'Flat Show', season: 2, episode: 5 },
      { title: 'Nested Show', season: 3, episode: 7 },
    ]);
  });
});
