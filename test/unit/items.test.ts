import { describe, expect, it } from 'vitest';
import { accountNames, ownerOfExport } from '../../src/items/account.js';
import { entryDomainOf, entryTitleOf } from '../../src/items/entry.js';

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
