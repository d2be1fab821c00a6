import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { isLoopbackAddress } from '../../src/sandbox/admin.js';
import { all, call, clock, NOW } from './helpers.js';

// Issue 44: the sandbox changes while it runs, over HTTP, so that lk diff, export --git, notify and --fresh can be
// tried by hand. Every change is read back through the API (/v1) as lk reads it.

let sandbox: Sandbox;
const time = clock(NOW);

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: 0, now: time.now });
});
afterAll(() => sandbox.close());

/** A POST to an admin route with a JSON body. */
async function admin(path: string, body: unknown = {}, options: { contentType?: string; method?: string } = {}) {
  const response = await fetch(sandbox.url + path, {
    method: options.method ?? 'POST',
    headers: { 'content-type': options.contentType ?? 'application/json' },
    body: options.method === 'GET' ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

describe('the admin routes change what /v1 answers', () => {
  it('POST /_sandbox/entries/{id}/events adds the entry’s newest event, dated now', async () => {
    const [id] = sandbox.entryIds('demo');
    time.set(NOW + 60_000);
    const added = await admin(`/_sandbox/entries/${id}/events`, { kind: 'FILM_SEEN' });
    expect(added.status).toBe(201);
    const history = await all(sandbox, `/v1/library/${id}/history`);
    expect(history[0]).toMatchObject({ id: added.body.id, kind: 'FILM_SEEN', date: new Date(NOW + 60_000).toISOString() });
  });

  it('rate, note and remove change the entry, then it is gone (404)', async () => {
    const id = sandbox.entryIds('demo')[3]!;
    expect((await admin(`/_sandbox/entries/${id}/rate`, { rating: 3 })).status).toBe(200);
    expect((await admin(`/_sandbox/entries/${id}/note`, { notes: 'changed by hand' })).status).toBe(200);
    expect((await call(sandbox, `/v1/library/${id}`)).body).toMatchObject({ rating: 3, notes: 'changed by hand' });
    expect((await admin(`/_sandbox/entries/${id}/remove`)).status).toBe(200);
    expect((await call(sandbox, `/v1/library/${id}`)).status).toBe(404);
  });

  it('POST /_sandbox/entries adds planned entries, the newest', async () => {
    const added = await admin('/_sandbox/entries', { count: 2 });
    expect(added.status).toBe(201);
    const library = (await call(sandbox, '/v1/library?limit=2')).body.items;
    expect(library.map((entry: any) => entry.id)).toEqual(added.body.ids);
  });

  it('a notification added is the newest, unread; marking it read shows', async () => {
    const added = await admin('/_sandbox/notifications', { title: 'Hello', message: 'Added by hand.' });
    expect(added.status).toBe(201);
    const [first] = (await call(sandbox, '/v1/notifications')).body.items;
    expect(first).toMatchObject({ id: added.body.id, title: 'Hello', message: 'Added by hand.', read: false });
    expect((await admin(`/_sandbox/notifications/${added.body.id}/read`)).status).toBe(200);
    expect((await call(sandbox, '/v1/notifications')).body.items[0]).toMatchObject({ id: added.body.id, read: true });
  });

  it('the profile is edited', async () => {
    expect((await admin('/_sandbox/profile', { displayName: 'Renamed', location: null })).status).toBe(200);
    expect((await call(sandbox, '/v1/profile')).body).toMatchObject({ displayName: 'Renamed', location: null });
  });

  it('a locked achievement is unlocked now', async () => {
    const locked = (await all(sandbox, '/v1/profile/achievements')).find((achievement: any) => !achievement.unlocked);
    expect(locked).toBeDefined();
    time.set(NOW + 120_000);
    expect((await admin(`/_sandbox/achievements/${locked.id}/unlock`)).status).toBe(200);
    const after = (await all(sandbox, '/v1/profile/achievements')).find((achievement: any) => achievement.id === locked.id);
    expect(after).toMatchObject({ unlocked: true, unlockedAt: new Date(NOW + 120_000).toISOString() });
  });

  it('a review added carries its privacy marks as given, the newest; a list added, its items and notes (issue 58)', async () => {
    const [id] = sandbox.entryIds('demo');
    time.set(NOW + 180_000);
    const review = await admin(`/_sandbox/entries/${id}/review`, { title: 'Mine', body: 'Only mine.', fields: { isPrivate: true } });
    expect(review.status).toBe(201);
    expect((await call(sandbox, '/v1/reviews')).body.items[0]).toMatchObject({
      id: review.body.id,
      entryId: id,
      title: 'Mine',
      body: 'Only mine.',
      spoiler: false,
      isPrivate: true,
      createdAt: new Date(NOW + 180_000).toISOString(),
    });
    const list = await admin('/_sandbox/lists', {
      name: 'Secret',
      description: 'Shh',
      fields: { public: false },
      items: [{ entryId: id, note: 'why' }],
    });
    expect(list.status).toBe(201);
    const added = (await call(sandbox, `/v1/lists/${list.body.id}`)).body;
    expect(added).toMatchObject({ name: 'Secret', description: 'Shh', itemCount: 1, public: false, items: [{ note: 'why' }] });
    // No visibility named: the list carries none (the sandbox's own lists always say it).
    expect(added).not.toHaveProperty('visibility');
    expect(await admin('/_sandbox/lists', { name: 'Bad', fields: { nested: {} } })).toMatchObject({ status: 400, body: { field: 'fields' } });
    expect(await admin('/_sandbox/lists', { name: 'Bad', visibility: 'secret' })).toMatchObject({ status: 400, body: { field: 'visibility' } });
    expect((await admin('/_sandbox/entries/nope/review', { title: 'x', body: 'y' })).status).toBe(404);
  });

  it('?account=reader changes the other account', async () => {
    expect((await admin('/_sandbox/profile?account=reader', { bio: 'Nouvelle bio.' })).status).toBe(200);
    expect((await call(sandbox, '/v1/profile', { key: 'nogames' })).body.bio).toBe('Nouvelle bio.');
    expect((await call(sandbox, '/v1/profile')).body.bio).not.toBe('Nouvelle bio.');
  });

  it('admin requests count in no counter and use no budget', async () => {
    sandbox.resetCounters();
    await admin('/_sandbox/notifications', { title: 'Quiet', message: 'Not counted.' });
    expect(sandbox.counters.requests).toBe(0);
  });
});

describe('the admin routes refuse', () => {
  it('bad input with one JSON error each, and list themselves on GET /_sandbox', async () => {
    const [id] = sandbox.entryIds('demo');
    expect(await admin(`/_sandbox/entries/${id}/rate`, { rating: 11 })).toMatchObject({ status: 400, body: { field: 'rating' } });
    expect(await admin(`/_sandbox/entries/${id}/rate`, 'not json')).toMatchObject({ status: 400, body: { code: 'request.invalid_body' } });
    expect((await admin(`/_sandbox/entries/${id}/rate`, { rating: 5 }, { contentType: 'text/plain' })).status).toBe(415);
    expect((await admin(`/_sandbox/entries/${id}/rate`, {}, { method: 'GET' })).status).toBe(405);
    expect((await admin('/_sandbox/entries/nope/remove')).status).toBe(404);
    expect((await admin('/_sandbox/profile?account=nobody', { bio: 'x' })).status).toBe(404);
    expect((await admin('/_sandbox/achievements/no-such-thing/unlock')).status).toBe(404);
    expect((await admin('/_sandbox/elsewhere')).status).toBe(404);
    const listed = await admin('/_sandbox', undefined, { method: 'GET' });
    expect(listed.status).toBe(200);
    expect(listed.body.routes.join('\n')).toContain('POST /_sandbox/notifications');
  });

  it('nothing of them under /v1: the API stays read-only', async () => {
    const response = await call(sandbox, '/v1/_sandbox/profile', { method: 'POST' });
    expect(response.status).toBe(405);
  });
});

describe('the admin routes off loopback', () => {
  // Decided on the client's address alone; tried without sending anything off this machine.
  it.each([
    ['127.0.0.1', true],
    ['127.5.6.7', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['192.0.2.2', false],
    ['::ffff:192.0.2.2', false],
    ['2001:db8::1', false],
    [undefined, false],
  ])('a client at %s is answered: %s', (address, answered) => {
    expect(isLoopbackAddress(address)).toBe(answered);
  });
});
