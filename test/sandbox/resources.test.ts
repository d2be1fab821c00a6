import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { all, call, clock, ISO_MS, NOW } from './helpers.js';

let sandbox: Sandbox;
const time = clock(NOW);

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: 0, now: time.now });
});
afterAll(() => sandbox.close());

const isEnvelope = (body: any) => Array.isArray(body.items) && typeof body.hasMore === 'boolean' && Number.isInteger(body.total);

describe('GET /v1/me', () => {
  it('reports the account, the key in use (never the whole key) and the rate limit', async () => {
    const { body } = await call(sandbox, '/v1/me', { key: 'library' });
    expect(body.account).toEqual({
      id: expect.any(String),
      username: 'demo',
      displayName: 'Demo User',
      language: 'en',
      timezone: 'Europe/London',
      domains: ['MEDIA', 'GAMES', 'BOOKS', 'MUSIC'],
    });
    expect(body.key).toMatchObject({ name: 'library', scopes: ['library:read'], prefix: sandbox.key('library').slice(0, 8) });
    expect(body.key.createdAt).toMatch(ISO_MS);
    expect(body.key.expiresAt).toMatch(ISO_MS);
    expect(JSON.stringify(body)).not.toContain(sandbox.key('library'));
    expect(Object.keys(body.rateLimit).sort()).toEqual(['limit', 'remaining', 'reset']);
  });

  it('reports the reader account with French and without GAMES', async () => {
    const { body } = await call(sandbox, '/v1/me', { key: 'nogames' });
    expect(body.account.language).toBe('fr');
    expect(body.account.domains).toEqual(['MEDIA', 'BOOKS', 'MUSIC']);
    expect(body.key.expiresAt).toBeNull();
  });
});

describe('lists', () => {
  it('GET /v1/lists is an envelope of lists with id, name, description, itemCount, visibility, shared, owner, url and dates', async () => {
    const response = await call(sandbox, '/v1/lists');
    expect(isEnvelope(response.body)).toBe(true);
    const list = response.body.items[0];
    expect(Object.keys(list)).toEqual(['id', 'name', 'description', 'itemCount', 'visibility', 'shared', 'owner', 'url', 'createdAt', 'updatedAt']);
    expect(response.body.items.some((candidate: any) => candidate.shared === true && candidate.owner !== 'demo')).toBe(true);
  });

  it('GET /v1/lists/{id} adds items of works, seasons and episodes; an unknown id gets 404', async () => {
    const lists = await all(sandbox, '/v1/lists');
    const big = lists.find((list: any) => list.itemCount >= 100);
    const full = (await call(sandbox, `/v1/lists/${big.id}`)).body;
    expect(full.items).toHaveLength(big.itemCount);
    expect(new Set(full.items.map((item: any) => item.type))).toEqual(new Set(['work', 'season', 'episode']));
    const episode = full.items.find((item: any) => item.type === 'episode');
    expect(episode).toMatchObject({ season: expect.any(Number), episode: expect.any(Number), title: expect.any(String) });
    expect(episode.addedAt).toMatch(ISO_MS);
    const missing = await call(sandbox, '/v1/lists/nope');
    expect([missing.status, missing.body.code]).toEqual([404, 'not_found']);
  });
});

describe('stats, reviews, profile, achievements, notifications', () => {
  it('GET /v1/stats/summary is derived from the library and respects domain', async () => {
    const library = await all(sandbox, '/v1/library');
    const summary = (await call(sandbox, '/v1/stats/summary')).body;
    expect(summary.totals.entries).toBe(library.length);
    expect(summary.byDomain.MEDIA.entries).toBe(library.filter((entry: any) => entry.work.domain === 'MEDIA').length);
    expect(summary.byPhase.DONE).toBe(library.filter((entry: any) => entry.phase === 'DONE').length);
    const distribution = Object.values(summary.ratings.distribution as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(distribution).toBe(library.filter((entry: any) => entry.rating !== null).length);
    expect(summary.timeSpent.watchMinutes).toBeGreaterThan(0);
    const books = (await call(sandbox, '/v1/stats/summary?domain=BOOKS')).body;
    expect(Object.keys(books.byDomain)).toEqual(['BOOKS']);
    expect(books.totals.entries).toBe(summary.byDomain.BOOKS.entries);
  });

  it('GET /v1/reviews is an envelope, newest first, filtered by domain, titles by lang', async () => {
    const reviews = await all(sandbox, '/v1/reviews');
    expect(reviews.length).toBeGreaterThan(3);
    const created = reviews.map((review: any) => Date.parse(review.createdAt));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    expect(reviews[0]).toMatchObject({
      id: expect.any(String),
      entryId: expect.any(String),
      work: expect.any(Object),
      rating: expect.any(Number),
      body: expect.any(String),
    });
    const media = await all(sandbox, '/v1/reviews?domain=MEDIA');
    expect(media.length).toBe(reviews.filter((review: any) => review.work.domain === 'MEDIA').length);
    expect((await call(sandbox, '/v1/reviews?lang=xx')).status).toBe(400);
  });

  it('GET /v1/profile is an object; achievements and notifications are envelopes', async () => {
    const profile = (await call(sandbox, '/v1/profile')).body;
    expect(profile).toMatchObject({ username: 'demo', url: 'https://app.lk.example/u/demo' });
    expect(profile.joinedAt).toMatch(ISO_MS);
    const achievements = (await call(sandbox, '/v1/profile/achievements')).body;
    expect(isEnvelope(achievements)).toBe(true);
    expect(achievements.items[0]).toMatchObject({
      id: expect.any(String),
      name: expect.any(String),
      progress: { current: expect.any(Number), target: expect.any(Number) },
    });
    const notifications = (await call(sandbox, '/v1/notifications?limit=5')).body;
    expect(isEnvelope(notifications)).toBe(true);
    expect(notifications.items).toHaveLength(5);
    expect(notifications.items[0]).toMatchObject({
      id: expect.any(String),
      kind: expect.any(String),
      message: expect.any(String),
      read: expect.any(Boolean),
    });
    const all_ = await all(sandbox, '/v1/notifications');
    expect(all_.some((notification: any) => notification.kind === 'key_revoked')).toBe(true);
  });

  it('paging rules apply to every envelope endpoint', async () => {
    for (const path of [
      '/v1/history',
      '/v1/lists',
      '/v1/reviews',
      '/v1/notifications',
      '/v1/profile/achievements',
      `/v1/library/${sandbox.entryIds('demo')[0]}/history`,
    ]) {
      const response = await call(sandbox, `${path}?limit=101`);
      expect([path, response.status, response.body.parameter]).toEqual([path, 400, 'limit']);
      const beyond = await call(sandbox, `${path}?page=9999`);
      expect([path, beyond.body.items, beyond.body.hasMore]).toEqual([path, [], false]);
    }
  });

  it('every url points at the web app, and every date is ISO 8601 UTC with milliseconds', async () => {
    const text = (await call(sandbox, '/v1/export')).text;
    const urls = text.match(/"(?:url|avatarUrl)":"[^"]*"/g)!;
    expect(urls.length).toBeGreaterThan(100);
    for (const url of urls) expect(url).toMatch(/":"https:\/\/app\.lk\.example\//);
    const dates = text.match(/"(?:added|started|finished|updated|date|createdAt|updatedAt|addedAt|unlockedAt|joinedAt|exportedAt)":("[^"]*"|null)/g)!;
    for (const date of dates) expect(date).toMatch(/:(null|"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z")$/);
  });
});
