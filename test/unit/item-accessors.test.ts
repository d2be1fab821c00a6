import { describe, expect, it } from 'vitest';
import {
  keyExpiresAtOf,
  keyNameOf,
  keyPrefixOf,
  keyScopesOf,
  profileDisplayNameOf,
  profileNameOf,
  rateLimitFiguresOf,
  rateLimitOf,
} from '../../src/items/account.js';
import { achievementNameOf, achievementProgressOf, achievementUnlockedAtOf } from '../../src/items/achievement.js';
import {
  airsAtOf,
  airTimeOf,
  episodeOf,
  episodePageOf,
  episodeTitleOf,
  runtimeMinutesOf,
  seasonOf,
  showPageOf,
  showTitleOf,
} from '../../src/items/calendar.js';
import {
  entryAddedAtOf,
  entryFinishedAtOf,
  entryNotesOf,
  entryRatingOf,
  entryTypeOf,
  ownerEntryIdOf,
  progressFiguresOf,
} from '../../src/items/entry.js';
import { eventCycleOf, eventDateOf, eventKindOf } from '../../src/items/event.js';
import { listIsPublic, listItemCountOf, listItemTypeOf, listNameOf, listOwnerNameOf } from '../../src/items/list.js';
import {
  notificationBodyOf,
  notificationDateOf,
  notificationHeadlineOf,
  notificationIsRead,
  notificationKindOf,
  notificationTextOf,
  notificationTitleOf,
} from '../../src/items/notification.js';
import { pageOf } from '../../src/items/page.js';
import {
  reviewBodyOf,
  reviewDateOf,
  reviewHeadlineOf,
  reviewIsPrivate,
  reviewIsSpoiler,
  reviewTitleOf,
  reviewWithheld,
  reviewWorkTitleOf,
} from '../../src/items/review.js';
import { workIdOf, workTitleOf, workYearOf } from '../../src/items/work.js';

/**
 * Issue 58: src/items owns every spelling of every field lk reads from a server; each accessor reads the union of the
 * spellings lk's surfaces read before (the calendar's table, its ICS feed, lk notify, lk status, the mirror's
 * columns, lk diff, lk convert). Each spelling alone gives the field.
 */
function eachSpelling(read: (item: unknown) => unknown, spellings: Record<string, unknown>[], expected: unknown): void {
  for (const item of spellings) expect(read(item), JSON.stringify(item)).toEqual(expected);
}

describe('a calendar item', () => {
  it('its air time under airsAt, airDate, airdate, date', () => {
    const at = '2026-03-03T21:00:00Z';
    eachSpelling(airTimeOf, [{ airsAt: at }, { airDate: at }, { airdate: at }, { date: at }], at);
    expect(airsAtOf({ airDate: at })).toBe(Date.parse(at));
    expect(airsAtOf({ airsAt: 'soon' })).toBeUndefined();
  });

  it('its show under show.title, work.title, show.name, showTitle', () => {
    eachSpelling(showTitleOf, [{ show: { title: 'S' } }, { work: { title: 'S' } }, { show: { name: 'S' } }, { showTitle: 'S' }], 'S');
  });

  it('its season flat, in a season object, in an episode object, as seasonNumber; a string of digits too', () => {
    eachSpelling(
      seasonOf,
      [{ season: 2 }, { season: { number: 2 } }, { episode: { season: 2, number: 5 } }, { seasonNumber: 2 }, { season: '2' }],
      2,
    );
    expect(seasonOf({ season: { title: 'Season two' } })).toBeUndefined();
  });

  it('its episode in an episode object, flat, as episodeNumber or number', () => {
    eachSpelling(episodeOf, [{ episode: { number: 5 } }, { episode: 5 }, { episodeNumber: 5 }, { number: 5 }, { episode: '5' }], 5);
    // An episode object without a number does not hide a flat spelling.
    expect(episodeOf({ episode: { title: 'Pilot' }, episodeNumber: 5 })).toBe(5);
  });

  it('its episode title, pages and runtime', () => {
    eachSpelling(episodeTitleOf, [{ title: 'T' }, { episode: { title: 'T' } }, { episodeTitle: 'T' }], 'T');
    eachSpelling(episodePageOf, [{ url: 'u' }, { episode: { url: 'u' } }, { show: { url: 'u' } }, { work: { url: 'u' } }], 'u');
    eachSpelling(showPageOf, [{ show: { url: 'u' } }, { work: { url: 'u' } }], 'u');
    eachSpelling(
      runtimeMinutesOf,
      [
        { runtimeMinutes: 42 },
        { runtime: 42 },
        { episode: { runtimeMinutes: 42 } },
        { show: { episodeRuntimeMinutes: 42 } },
        { work: { episodeRuntimeMinutes: 42 } },
      ],
      42,
    );
  });
});

describe('a notification', () => {
  it('its title under title, subject; its text under message, text, body', () => {
    eachSpelling(notificationTitleOf, [{ title: 'T' }, { subject: 'T' }], 'T');
    eachSpelling(notificationTextOf, [{ message: 'M' }, { text: 'M' }, { body: 'M' }], 'M');
    eachSpelling(notificationKindOf, [{ kind: 'K' }, { type: 'K' }], 'K');
    eachSpelling(notificationDateOf, [{ createdAt: 'd' }, { date: 'd' }, { created_at: 'd' }], 'd');
  });

  it('headed by its title, else its text; its body shown only beside a title', () => {
    expect(notificationHeadlineOf({ subject: 'T', body: 'M' })).toBe('T');
    expect(notificationHeadlineOf({ text: 'M' })).toBe('M');
    expect(notificationBodyOf({ subject: 'T', text: 'M' })).toBe('M');
    expect(notificationBodyOf({ text: 'M' })).toBeUndefined();
  });

  it('read: a read boolean, or a readAt time (null while unread)', () => {
    expect(notificationIsRead({ read: true })).toBe(true);
    expect(notificationIsRead({ readAt: '2026-01-01' })).toBe(true);
    expect(notificationIsRead({ readAt: null })).toBe(false);
    expect(notificationIsRead({})).toBeUndefined();
  });
});

describe('a review', () => {
  it('withheld when private in any spelling (isPrivate, private, public: false, visibility: "private")', () => {
    for (const marks of [{ isPrivate: true }, { private: true }, { public: false }, { visibility: 'private' }]) {
      expect(reviewIsPrivate(marks), JSON.stringify(marks)).toBe(true);
      expect(reviewWithheld(marks), JSON.stringify(marks)).toBe(true);
    }
  });

  it('withheld when a spoiler in any spelling (containsSpoilers, spoiler, hasSpoilers)', () => {
    for (const marks of [{ containsSpoilers: true }, { spoiler: true }, { hasSpoilers: true }]) {
      expect(reviewIsSpoiler(marks), JSON.stringify(marks)).toBe(true);
      expect(reviewWithheld(marks), JSON.stringify(marks)).toBe(true);
    }
    expect(reviewWithheld({ visibility: 'public', spoiler: false })).toBe(false);
    expect(reviewWithheld({})).toBe(false);
  });

  it('its title, body, work, date and headline under every spelling', () => {
    eachSpelling(reviewTitleOf, [{ title: 'T' }, { headline: 'T' }, { summary: 'T' }], 'T');
    eachSpelling(reviewBodyOf, [{ body: 'B' }, { text: 'B' }, { content: 'B' }, { review: 'B' }], 'B');
    eachSpelling(reviewWorkTitleOf, [{ work: { title: 'W' } }, { entry: { work: { title: 'W' } } }], 'W');
    eachSpelling(reviewDateOf, [{ createdAt: 'd' }, { publishedAt: 'd' }, { created: 'd' }, { date: 'd' }, { dates: { created: 'd' } }], 'd');
    expect(reviewHeadlineOf({ body: 'B' })).toBe('B');
  });
});

describe('a list', () => {
  it('public only when marked so, in any spelling, and marked private by none', () => {
    for (const marks of [{ visibility: 'public' }, { public: true }, { isPublic: true }])
      expect(listIsPublic(marks), JSON.stringify(marks)).toBe(true);
    for (const marks of [
      {},
      { visibility: 'private' },
      { public: false },
      { isPrivate: true },
      { private: true },
      { visibility: 'public', private: true },
    ])
      expect(listIsPublic(marks), JSON.stringify(marks)).toBe(false);
  });

  it('its name, count, owner and items', () => {
    eachSpelling(listNameOf, [{ name: 'N' }, { title: 'N' }], 'N');
    eachSpelling(listItemCountOf, [{ itemCount: 3 }, { itemsCount: 3 }, { count: 3 }, { size: 3 }, { items: [1, 2, 3] }], 3);
    eachSpelling(
      listOwnerNameOf,
      [{ owner: 'ana' }, { owner: { username: 'ana' } }, { owner: { displayName: 'ana' } }, { owner: { name: 'ana' } }],
      'ana',
    );
    eachSpelling(listItemTypeOf, [{ type: 'Episode' }, { kind: 'episode' }, { itemType: 'EPISODE' }, { episode: { number: 1 } }], 'episode');
  });
});

describe('an entry, an event, a work', () => {
  it('an entry’s dates, rating, notes and type', () => {
    eachSpelling(entryAddedAtOf, [{ dates: { added: 'd' } }, { addedAt: 'd' }, { createdAt: 'd' }], 'd');
    eachSpelling(entryFinishedAtOf, [{ dates: { finished: 'd' } }, { finishedAt: 'd' }, { completedAt: 'd' }], 'd');
    eachSpelling(entryRatingOf, [{ rating: 8 }, { score: 8 }, { myRating: 8 }], 8);
    eachSpelling(entryNotesOf, [{ notes: 'n' }, { note: 'n' }, { comment: 'n' }], 'n');
    eachSpelling(entryTypeOf, [{ work: { type: 'film' } }, { work: { kind: 'film' } }, { work: { mediaType: 'film' } }], 'film');
    expect(progressFiguresOf({ watched: 3, of: 10 })).toMatchObject({ episodes: 3, total: 10 });
  });

  it('the entry and work an item names', () => {
    eachSpelling(ownerEntryIdOf, [{ entryId: 'e' }, { entry: { id: 'e' } }, { libraryEntryId: 'e' }, { libraryId: 'e' }], 'e');
    eachSpelling(workIdOf, [{ work: { id: 'w' } }, { show: { id: 'w' } }, { workId: 'w' }, { showId: 'w' }, { entry: { work: { id: 'w' } } }], 'w');
    eachSpelling(pageOf, [{ url: 'u' }, { work: { url: 'u' } }], 'u');
  });

  it('an event’s kind, date and cycle; undated stays undated', () => {
    eachSpelling(eventKindOf, [{ kind: 'K' }, { type: 'K' }, { event: 'K' }], 'K');
    eachSpelling(eventDateOf, [{ date: 'd' }, { at: 'd' }, { watchedAt: 'd' }, { occurredAt: 'd' }], 'd');
    expect(eventDateOf({ date: null, at: 'd' })).toBeNull();
    eachSpelling(eventCycleOf, [{ cycle: 2 }, { cycleNumber: 2 }, { round: 2 }], 2);
  });

  it('a work’s title and year', () => {
    eachSpelling(workTitleOf, [{ title: 'T' }, { name: 'T' }, { titles: { en: 'T' } }], 'T');
    eachSpelling(workYearOf, [{ year: 1999 }, { releaseYear: 1999 }, { firstPublishYear: 1999 }, { publishedYear: 1999 }], 1999);
  });
});

describe('an achievement and the account', () => {
  it('an achievement’s name, unlock date and progress', () => {
    eachSpelling(achievementNameOf, [{ name: 'A' }, { title: 'A' }], 'A');
    eachSpelling(achievementUnlockedAtOf, [{ unlockedAt: 'd' }, { achievedAt: 'd' }, { date: 'd' }], 'd');
    expect(achievementProgressOf({ progress: { current: 3, total: 10 } })).toMatchObject({ current: 3, target: 10 });
    expect(achievementProgressOf({ current: 3, target: 10 })).toMatchObject({ current: 3, target: 10 });
  });

  it('the key, its expiry (null: never; missing: unknown) and the rate limit', () => {
    eachSpelling(keyNameOf, [{ key: { name: 'k' } }, { key: { label: 'k' } }, { apiKey: { name: 'k' } }], 'k');
    eachSpelling(keyPrefixOf, [{ key: { prefix: 'p' } }, { apiKey: { prefix: 'p' } }], 'p');
    eachSpelling(keyScopesOf, [{ key: { scopes: ['a'] } }, { apiKey: { scopes: ['a'] } }, { scopes: ['a'] }], ['a']);
    expect(keyExpiresAtOf({ key: { expiresAt: null } })).toBeNull();
    expect(keyExpiresAtOf({})).toBeUndefined();
    eachSpelling(rateLimitOf, [{ rateLimit: { limit: 60 } }, { rate_limit: { limit: 60 } }], { limit: 60 });
    eachSpelling(
      rateLimitFiguresOf,
      [
        { limit: 60, remaining: 5, reset: 9 },
        { perMinute: 60, left: 5, resetSeconds: 9 },
        { limit: 60, remaining: 5, resetIn: 9 },
      ],
      { limit: 60, remaining: 5, reset: 9 },
    );
    eachSpelling(profileNameOf, [{ username: 'u' }, { name: 'u' }], 'u');
    eachSpelling(profileDisplayNameOf, [{ displayName: 'D' }, { display_name: 'D' }], 'D');
  });
});
