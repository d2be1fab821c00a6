/**
 * The changes a test or a person makes to a running sandbox's data, as a web app user would: the programmatic API
 * (`Sandbox` in index.ts) and the admin routes (admin.ts) both call these. Ids are as the API shows them (UUIDs in
 * the alt variant). Each throws MutationRefused for an unknown account, entry, notification or achievement.
 */
import { addNotification, editProfile, readNotification, unlockAchievement, type ProfileEdit } from './account-edits.js';
import type { AccountData, SandboxData } from './data.js';
import { MutationRefused } from './errors.js';
import { addList, addReview, type NewList, type NewReview } from './privacy-edits.js';
import type { EventKind } from './model.js';
import type { AltVariant } from './variant.js';

export interface SandboxMutations {
  /** Prepends n new (newest) entries to the account. */
  addEntries(account: string, n: number): void;
  /** Every entry id of the account, in the library's natural order (newest first). */
  entryIds(account: string): string[];
  /** Removes an entry (and its reviews) from the account's library. */
  removeEntry(account: string, id: string): void;
  /** Changes an entry's rating (1-10 or null). */
  rateEntry(account: string, id: string, rating: number | null): void;
  /** Replaces an entry's notes (null clears them). */
  noteEntry(account: string, id: string, notes: string | null): void;
  /** Adds a dated event (FILM_SEEN, 90 minutes, unless another kind is named) at the clock's time; returns its id. */
  addEvent(account: string, id: string, kind?: EventKind): string;
  /** Adds an unread notification, the newest, at the clock's time; returns its id. */
  addNotification(account: string, notification: { title: string; message: string; kind?: string }): string;
  /** Marks a notification read (or unread again). */
  readNotification(account: string, id: string, read?: boolean): void;
  /** Changes the profile's displayName, bio or location. */
  editProfile(account: string, edit: ProfileEdit): void;
  /** Unlocks an achievement (by its slug) at the clock's time. */
  unlockAchievement(account: string, id: string): void;
  /** Adds a review of an entry, the newest, at the clock's time, with any privacy or spoiler marks; returns its id. */
  addReview(account: string, entryId: string, review: NewReview): string;
  /** Adds a list of the account's own, the newest, of the works of these entries (each with its note); returns its id. */
  addList(account: string, list: Omit<NewList, 'items'> & { items?: Array<{ entryId: string; note?: string }> }): string;
}

export function sandboxMutations(data: SandboxData, alt: AltVariant | undefined, now: () => number): SandboxMutations {
  const accountOf = (username: string): AccountData => {
    if (!data.accounts.has(username))
      throw new MutationRefused(`no sandbox account ${JSON.stringify(username)} (accounts: ${[...data.accounts.keys()].join(', ')})`);
    return data.account(username);
  };
  const entryId = (account: AccountData, id: string): string => {
    const inner = alt ? alt.idIn(id) : id;
    if (!account.byId.has(inner)) throw new MutationRefused(`no entry ${id} in ${account.username}'s library`);
    return inner;
  };
  return {
    addEntries: (account, n) => void accountOf(account).addEntries(n, now()),
    entryIds: (account) => accountOf(account).entries.map((entry) => (alt ? alt.uuid(entry.id) : entry.id)),
    removeEntry: (account, id) => {
      const found = accountOf(account);
      found.removeEntry(entryId(found, id));
    },
    rateEntry: (account, id, rating) => {
      const found = accountOf(account);
      found.rateEntry(entryId(found, id), rating, now());
    },
    noteEntry: (account, id, notes) => {
      const found = accountOf(account);
      found.noteEntry(entryId(found, id), notes, now());
    },
    addEvent: (account, id, kind = 'FILM_SEEN') => {
      const found = accountOf(account);
      const eventId = found.addEvent(entryId(found, id), kind, now(), { minutes: 90 });
      return alt ? alt.uuid(eventId) : eventId;
    },
    addNotification: (account, notification) => {
      const id = addNotification(accountOf(account), notification, now());
      return alt ? alt.uuid(id) : id;
    },
    readNotification: (account, id, read = true) => readNotification(accountOf(account), alt ? alt.idIn(id) : id, read),
    editProfile: (account, edit) => editProfile(accountOf(account), edit),
    unlockAchievement: (account, id) => unlockAchievement(accountOf(account), id, now()),
    addReview: (account, id, review) => {
      const found = accountOf(account);
      const reviewId = addReview(found, found.byId.get(entryId(found, id))!, review, now());
      return alt ? alt.uuid(reviewId) : reviewId;
    },
    addList: (account, { items, ...list }) => {
      const found = accountOf(account);
      const entries = (items ?? []).map((item) => ({ entry: found.byId.get(entryId(found, item.entryId))!, note: item.note }));
      const listId = addList(found, { ...list, items: entries }, now());
      return alt ? alt.uuid(listId) : listId;
    },
  };
}
