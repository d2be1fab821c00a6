/**
 * Reviews and lists added while the sandbox runs (mutations.ts), each with the marks of privacy another server might
 * spell its own way (`fields`: isPrivate, public: false, containsSpoilers…): what a test needs to show that no such
 * text reaches a public surface, whatever the spelling. Each is the account's newest, at the clock's time.
 */
import type { AccountData } from './data.js';
import { toBase62 } from './keys.js';
import type { EntryRecord, ExtraField, ListRecord } from './model.js';

export interface NewReview {
  title: string;
  body: string;
  spoiler?: boolean | undefined;
  /** Members added as they are (after the sandbox's own): `{isPrivate: true}`, `{visibility: "friends"}`. */
  fields?: Record<string, ExtraField> | undefined;
}

export interface NewList {
  name: string;
  description?: string | null | undefined;
  /** The sandbox's own mark; null (the default) leaves the member out, so that `fields` alone marks the list. */
  visibility?: ListRecord['visibility'] | undefined;
  fields?: Record<string, ExtraField> | undefined;
  /** The list's works: those of these entries, each with its note. */
  items?: Array<{ entry: EntryRecord; note?: string | undefined }> | undefined;
}

/** A free id with this prefix, numbered past what the generator uses. */
function freshId(prefix: string, taken: Set<string>, account: AccountData): string {
  let serial = taken.size;
  let id: string;
  do id = `${prefix}${toBase62(0x7100_0000 + account.accountIndex * 100_000 + serial++, 6)}`;
  while (taken.has(id));
  return id;
}

/** Adds a review of `entry`, the newest; returns its id. */
export function addReview(account: AccountData, entry: EntryRecord, review: NewReview, now: number): string {
  const id = freshId('r', new Set(account.reviews.map((existing) => existing.id)), account);
  account.reviews = [
    {
      id,
      entry,
      headline: review.title,
      body: review.body,
      spoiler: review.spoiler ?? false,
      fields: review.fields ?? {},
      likes: 0,
      createdAt: now,
      updatedAt: now,
    },
    ...account.reviews,
  ];
  account.changed();
  return id;
}

/** Adds a list of the account's own, the newest; returns its id. */
export function addList(account: AccountData, list: NewList, now: number): string {
  const id = freshId('l', new Set(account.lists.map((existing) => existing.id)), account);
  const items = (list.items ?? []).map(({ entry, note }) => ({
    type: 'work' as const,
    work: entry.work,
    addedAt: now,
    ...(note === undefined ? {} : { note }),
  }));
  account.lists = [
    {
      id,
      name: list.name,
      description: list.description ?? null,
      visibility: list.visibility ?? null,
      fields: list.fields ?? {},
      shared: false,
      owner: account.username,
      createdAt: now,
      updatedAt: now,
      items,
    },
    ...account.lists,
  ];
  account.changed();
  return id;
}
