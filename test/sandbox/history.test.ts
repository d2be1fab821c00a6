import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { all, call, clock, ISO_MS, NOW } from './helpers.js';

interface HistoryEvent {
  id: string;
  entryId: string;
  work: { id: string; domain: string; title: string };
  kind: string;
  date: string | null;
  cycle: number;
  season?: number;
  episode?: number;
}

const KINDS = ['EPISODE_SEEN', 'FILM_SEEN', 'GAME_SESSION', 'READING_SESSION', 'GAME_FINISHED', 'BOOK_FINISHED', 'ALBUM_FINISHED'];

let sandbox: Sandbox;
let history: HistoryEvent[];
const time = clock(NOW);

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: 0, now: time.now });
  history = await all<HistoryEvent>(sandbox, '/v1/history');
});
afterAll(() => sandbox.close());

const dates = (events: HistoryEvent[]) => events.map((event) => Date.parse(event.date!));

describe('GET /v1/history', () => {
  it('lists dated events of the seven kinds, newest first, each with id, entryId, work, kind, date and cycle', () => {
    expect(history.length).toBeGreaterThan(500);
    expect(new Set(history.map((event) => event.kind))).toEqual(new Set(KINDS));
    for (const event of history) {
      expect(event.date).toMatch(ISO_MS);
      expect(Number.isInteger(event.cycle) && event.cycle >= 1).toBe(true);
      expect(typeof event.entryId).toBe('string');
      expect(typeof event.work.id).toBe('string');
    }
    expect(dates(history)).toEqual([...dates(history)].sort((a, b) => b - a));
    expect(new Set(history.map((event) => event.id)).size).toBe(history.length);
  });

  it('episodes carry season and episode; rewatches, replays and rereads start cycle 2', () => {
    const episode = history.find((event) => event.kind === 'EPISODE_SEEN')!;
    expect(Number.isInteger(episode.season)).toBe(true);
    expect(Number.isInteger(episode.episode)).toBe(true);
    expect(history.some((event) => event.cycle === 2)).toBe(true);
  });

  it('undated events are never in /v1/history and come last in /v1/library/{id}/history', async () => {
    expect(history.every((event) => event.date !== null)).toBe(true);
    let found = 0;
    for (const id of sandbox.entryIds('demo')) {
      const events = await all<HistoryEvent>(sandbox, `/v1/library/${id}/history`);
      const firstUndated = events.findIndex((event) => event.date === null);
      if (firstUndated < 0) continue;
      expect(events.slice(firstUndated).every((event) => event.date === null)).toBe(true);
      const dated = events.slice(0, firstUndated);
      expect(dates(dated)).toEqual([...dates(dated)].sort((a, b) => b - a));
      if (dated.length > 0) found += 1;
      if (found >= 3) break;
    }
    expect(found).toBe(3);
  });

  it("an entry history holds all of that entry's dated events plus its undated ones", async () => {
    const entryId = history[0]!.entryId;
    const events = await all<HistoryEvent>(sandbox, `/v1/library/${entryId}/history`);
    expect(events.every((event) => event.entryId === entryId)).toBe(true);
    const dated = events.filter((event) => event.date !== null).map((event) => event.id);
    expect(dated).toEqual(history.filter((event) => event.entryId === entryId).map((event) => event.id));
  });

  it('from and to bound the window, inclusive', async () => {
    const middle = history[Math.floor(history.length / 2)]!;
    const later = history[Math.floor(history.length / 4)]!;
    const window = await all<HistoryEvent>(sandbox, `/v1/history?from=${middle.date}&to=${later.date}`);
    const expected = history.filter((event) => event.date! >= middle.date! && event.date! <= later.date!);
    expect(window.map((event) => event.id)).toEqual(expected.map((event) => event.id));
    expect(window[0]!.date).toBe(later.date);
    expect(window.at(-1)!.date).toBe(middle.date);
  });

  it('to=YYYY-MM-DD includes that whole day, from=YYYY-MM-DD starts at its midnight', async () => {
    const day = history[10]!.date!.slice(0, 10);
    const events = await all<HistoryEvent>(sandbox, `/v1/history?from=${day}&to=${day}`);
    const expected = history.filter((event) => event.date!.startsWith(day));
    expect(events.length).toBeGreaterThan(0);
    expect(events.map((event) => event.id)).toEqual(expected.map((event) => event.id));
  });

  it('accepts date-times with an offset', async () => {
    const event = history[5]!;
    const at = new Date(Date.parse(event.date!));
    const withOffset = `${new Date(at.getTime() + 2 * 3_600_000).toISOString().slice(0, 19)}+02:00`;
    const window = await call(sandbox, `/v1/history?from=${encodeURIComponent(withOffset)}&to=${encodeURIComponent(withOffset)}`);
    expect(window.status).toBe(200);
    expect(window.body.items.map((item: HistoryEvent) => item.date)).toContain(event.date);
  });

  it.each(['2026-02-30', 'yesterday', '2026-1-5', '2026-01-05T25:00:00Z', '2026-01-05T10:00'])('from=%s gets 400 naming from', async (value) => {
    const response = await call(sandbox, `/v1/history?from=${value}`);
    expect([response.status, response.body.code, response.body.parameter]).toEqual([400, 'request.invalid_parameter', 'from']);
  });

  it('from after to gets 400', async () => {
    expect((await call(sandbox, '/v1/history?from=2026-02-02&to=2026-02-01')).status).toBe(400);
  });

  it('domain filters events, and a disabled domain gets 403', async () => {
    const books = await all<HistoryEvent>(sandbox, '/v1/history?domain=BOOKS');
    expect(books.length).toBe(history.filter((event) => event.work.domain === 'BOOKS').length);
    expect(books.every((event) => event.work.domain === 'BOOKS')).toBe(true);
    expect((await call(sandbox, '/v1/history?domain=GAMES', { key: 'nogames' })).status).toBe(403);
  });

  it('lang changes film and series titles in events', async () => {
    const fr = await call(sandbox, '/v1/history?lang=fr&limit=100');
    const en = await call(sandbox, '/v1/history?lang=en&limit=100');
    const changed = fr.body.items.filter((event: HistoryEvent, n: number) => event.work.title !== en.body.items[n].work.title);
    expect(changed.length).toBeGreaterThan(0);
  });
});
