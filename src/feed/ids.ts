import { createHash } from 'node:crypto';

/**
 * Ids of the feed and its entries: name-based UUIDs (RFC 9562 version 5) written as urn:uuid, made from the account
 * and the instance's host name with what identifies the item (src/feed/activity.ts, `key`). The same event gives the
 * same id in every run and after any re-sync, and nothing about the machine or the clock enters it. A tag: URI would
 * need a domain name the user owns, which lk cannot know.
 */

// A namespace of lk's own (a random UUID, fixed for good: changing it would change every feed's ids).
const LK_FEED_NAMESPACE = '4c6b2f8e-1d0a-4e57-9a6b-3f2c8d7e5a10';

export function nameBasedUuid(name: string, namespace = LK_FEED_NAMESPACE): string {
  const hash = createHash('sha1')
    .update(Buffer.from(namespace.replace(/-/g, ''), 'hex'))
    .update(name, 'utf8')
    .digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Whose activity: the account's name at the instance's host (no port or scheme, which a move to https would change). */
export function owner(account: string | undefined, baseUrl: string | undefined): string {
  return `${account ?? ''}@${hostOf(baseUrl)}`;
}

function hostOf(baseUrl: string | undefined): string {
  if (baseUrl === undefined) return '';
  try {
    return new URL(baseUrl).hostname;
  } catch {
    return baseUrl;
  }
}

export function entryId(ownerName: string, key: string): string {
  return `urn:uuid:${nameBasedUuid(`${ownerName}\n${key}`)}`;
}

/** The feed's own id: one per account and choice of domain, so a feed of books alone is another feed. */
export function feedId(ownerName: string, domain: string | undefined): string {
  return `urn:uuid:${nameBasedUuid(`${ownerName}\nfeed\n${domain ?? 'all'}`)}`;
}
