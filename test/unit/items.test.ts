import { describe, expect, it } from 'vitest';
import { accountNames, ownerOfExport } from '../../src/items/account.js';
import { entryDomainOf, entryTitleOf } from '../../src/items/entry.js';
import { listIsPublic } from '../../src/items/list.js';
import { reviewBodyOf, reviewIsPrivate, reviewIsSpoiler, reviewTitleOf, reviewWithheld } from '../../src/items/review.js';

/**
 * src/items: the one reading of the API's items that the mirror, lk diff, lk next/status and lk feed share. The
 * account is read once and gives two names (items/account.ts says why): the one lk keys its files by, and the one
 * lk whoami shows.
 */
describe('who a GET /v1/me answer names', () => {
  it('keys files by the username, else the id, and shows the first name under any spelling', () => {
    expect(accountNames({ account: { username: 'ana', name: 'Ana B', id: 42 } })).toEqual({ key: 'ana', shown: 'ana', displayName: 'Ana B' });
    // A name or a login is shown, but the key stays the id: an existing cache and budget keep their folder.
    expect(accountNames({ account: { name: 'ana', id: 42 } })).toMatchObject({ key: '42', shown: 'ana' });
    expect(accountNames({ account: { login: 'ana', id: 42 } })).toMatchObject({ key: '42', shown: 'ana' });
    expect(accountNames({ user: { username: 'ana' } })).toEqual({ key: undefined, shown: 'ana', displayName: undefined });
    expect(accountNames({ account: { username: '' } }).key).toBeUndefined();
  });

  it("reads an export's owner by id and name", () => {
    expect(ownerOfExport({ id: 7, username: 'ana' })).toEqual({ id: '7', name: 'ana' });
    expect(ownerOfExport({ name: 'ana' })).toEqual({ id: null, name: 'ana' });
  });
});

describe('an entry read the same way everywhere', () => {
  it("takes its work's title and domain, else its own", () => {
    expect(entryTitleOf({ work: { name: 'Dune', type: 'book' } })).toBe('Dune');
    expect(entryDomainOf({ work: { id: 1, type: 'book' } })).toBe('BOOKS');
    expect(entryDomainOf({ work: { type: 'film' }, domain: 'GAMES' })).toBe('MEDIA');
    expect(entryDomainOf({ title: 'x', domain: 'GAMES' })).toBe('GAMES');
  });
});

describe('who may read a review or a list, in every spelling servers use (issue 58)', () => {
  it('a review is withheld when private in any spelling or a spoiler in any spelling; an unmarked one is public', () => {
    for (const marks of [
      { isPrivate: true },
      { private: true },
      { public: false },
      { isPublic: false },
      { visibility: 'private' },
      { visibility: 'FRIENDS' },
    ]) {
      expect(reviewIsPrivate(marks), JSON.stringify(marks)).toBe(true);
      expect(reviewWithheld(marks), JSON.stringify(marks)).toBe(true);
    }
    for (const marks of [{ spoiler: true }, { containsSpoilers: true }, { hasSpoilers: 1 }]) {
      expect(reviewIsSpoiler(marks), JSON.stringify(marks)).toBe(true);
      expect(reviewIsPrivate(marks), JSON.stringify(marks)).toBe(false);
      expect(reviewWithheld(marks), JSON.stringify(marks)).toBe(true);
    }
    // A private mark wins over a public one; a flag is true or 1, never the word "true".
    expect(reviewWithheld({ public: true, private: true })).toBe(true);
    for (const marks of [
      {},
      { spoiler: false, public: true },
      { visibility: 'Public' },
      { visibility: null },
      { private: 'true' },
      { isPrivate: false },
    ])
      expect(reviewWithheld(marks), JSON.stringify(marks)).toBe(false);
  });

  it('a list is public only when marked so and marked private by none: a list with no marking is not public', () => {
    for (const marks of [{ visibility: 'public' }, { public: true }, { isPublic: 1 }]) expect(listIsPublic(marks), JSON.stringify(marks)).toBe(true);
    for (const marks of [
      {},
      { visibility: 'friends' },
      { public: false },
      { isPrivate: true },
      { public: true, private: true },
      { visibility: 'public', isPublic: false },
    ])
      expect(listIsPublic(marks), JSON.stringify(marks)).toBe(false);
  });

  it('reads a review’s text under every spelling the mirror keeps', () => {
    expect([reviewTitleOf({ headline: 'H' }), reviewBodyOf({ content: 'C' })]).toEqual(['H', 'C']);
    expect([reviewTitleOf({ summary: 'S', title: 'T' }), reviewBodyOf({ text: 'X' })]).toEqual(['T', 'X']);
  });
});
