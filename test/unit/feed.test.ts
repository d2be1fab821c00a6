import { describe, expect, it } from 'vitest';
import { activityKind } from '../../src/feed/activity.js';
import { entryId, feedId, nameBasedUuid, owner } from '../../src/feed/ids.js';
import { entryTitle, excerpt, type FeedEvent, type FeedItemFacts } from '../../src/output/wording/feed-text.js';
import { feedText } from '../../src/output/terminal/sanitize.js';

const event = (extra: Partial<FeedEvent> = {}): FeedEvent => ({
  kind: undefined,
  cycle: 1,
  season: undefined,
  episode: undefined,
  minutes: undefined,
  pages: undefined,
  ...extra,
});

const item = (extra: Partial<FeedItemFacts>): FeedItemFacts => ({
  kind: 'finished',
  title: 'Dune',
  type: 'book',
  domain: 'BOOKS',
  rating: undefined,
  notes: undefined,
  review: undefined,
  events: [event()],
  ...extra,
});

describe('feed ids', () => {
  it('are RFC 9562 version 5 UUIDs: the standard example (www.example.com in the DNS namespace)', () => {
    expect(nameBasedUuid('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });

  it('depend on the account, the host (not the scheme or port) and the item, nothing else', () => {
    const a = entryId(owner('demo', 'http://tracker.example.org:8080'), 'event/h1');
    expect(entryId(owner('demo', 'https://tracker.example.org/prefix'), 'event/h1')).toBe(a);
    expect(entryId(owner('other', 'https://tracker.example.org'), 'event/h1')).not.toBe(a);
    expect(entryId(owner('demo', 'https://tracker.example.org'), 'event/h2')).not.toBe(a);
    expect(feedId(owner('demo', undefined), 'BOOKS')).not.toBe(feedId(owner('demo', undefined), undefined));
  });
});

describe('activityKind: an event kind under any spelling', () => {
  it.each([
    ['EPISODE_SEEN', 'episodes'],
    ['episode-seen', 'episodes'],
    ['FILM_SEEN', 'film'],
    ['movie_watched', 'film'],
    ['GAME_SESSION', 'sessions'],
    ['READING_SESSION', 'sessions'],
    ['BOOK_FINISHED', 'finished'],
    ['ALBUM_FINISHED', 'finished'],
    ['WISHLISTED', 'other'],
    [undefined, 'other'],
  ] as const)('%s is %s', (kind, expected) => {
    expect(activityKind(kind)).toBe(expected);
  });
});

describe('entryTitle: what a person would write', () => {
  it.each([
    [item({ rating: 4 }), 5, 'Finished Dune (book) — 4/5'],
    [item({ rating: 8, events: [event({ cycle: 2 })] }), 10, 'Finished Dune again (book) — 8/10'],
    [item({ rating: 7 }), undefined, 'Finished Dune (book) — rated 7'],
    [item({ title: 'Blue', type: 'album', domain: 'MUSIC' }), 10, 'Listened to Blue (album)'],
    [item({ kind: 'film', title: 'Amélie', type: 'film', domain: 'MEDIA', rating: 9 }), 10, 'Watched Amélie (film) — 9/10'],
    [item({ kind: 'episodes', title: 'Severance', type: 'series', events: [event({ season: 2, episode: 5 })] }), 10, 'Watched Severance S02E05'],
    [
      item({ kind: 'episodes', title: 'Severance', events: [5, 4, 3].map((episode) => event({ season: 2, episode })) }),
      10,
      'Watched 3 episodes of Severance (S02E03–S02E05)',
    ],
    [
      item({ kind: 'sessions', events: [event({ kind: 'READING_SESSION', pages: 30 }), event({ kind: 'READING_SESSION', pages: 15 })] }),
      10,
      'Read 45 pages of Dune (2 sessions)',
    ],
    [
      item({ kind: 'sessions', title: 'Hades', type: 'game', events: [event({ kind: 'GAME_SESSION', minutes: 150 })] }),
      10,
      'Played Hades for 2h 30m',
    ],
    [
      item({ kind: 'other', title: undefined, type: undefined, domain: undefined, events: [event({ kind: 'WISHLISTED' })] }),
      10,
      '(untitled): wishlisted',
    ],
  ])('%#: %s', (facts, scale, expected) => {
    expect(entryTitle(facts, scale)).toBe(expected);
  });

  it('a title is one line: newlines, tabs and control characters do not survive', () => {
    expect(entryTitle(item({ title: 'Two\nlines\tand\u0000NUL\u001b[31m' }), undefined)).toBe('Finished Two lines andNUL[31m (book)');
  });
});

describe('excerpt', () => {
  it('keeps a short text whole and cuts a long one at a word, with …', () => {
    expect(excerpt('A short review.')).toBe('A short review.');
    const cut = excerpt('word '.repeat(1000));
    expect(cut.endsWith('word…')).toBe(true);
    expect(Array.from(cut).length).toBeLessThanOrEqual(281);
  });

  it('never splits an emoji (a surrogate pair) at the cut', () => {
    const cut = excerpt('🎬'.repeat(500), 10);
    expect(cut).toBe(`${'🎬'.repeat(10)}…`);
  });

  it('reads no further than it needs: a 1 MB text is cut from its start', () => {
    expect(excerpt(`${'x'.repeat(100)} ${'y'.repeat(1_000_000)}`, 50)).toBe(`${'x'.repeat(50)}…`);
  });
});

describe('feedText', () => {
  it('removes what XML 1.0 forbids and what a terminal obeys, and keeps every other script', () => {
    expect(feedText('a\u0000b\u0008c\u000bd\u001be\u007ff\u009bg\ufffeh\uffffi')).toBe('abcdefghi');
    expect(feedText('lone \ud800 high, lone \udc00 low, pair 🎬')).toBe('lone  high, lone  low, pair 🎬');
    expect(feedText('שלום \u202eevil\u202c عالم \u2067iso\u2069')).toBe('שלום evil عالم iso');
    expect(feedText('line\r\nbreak\ttab')).toBe('line\nbreak\ttab');
  });
});
