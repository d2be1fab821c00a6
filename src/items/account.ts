import { firstOf, getPath } from '../util/object-path.js';
import { text } from './values.js';

/**
 * Who a GET /v1/me answer says the account is. docs/api.md says only that it reports the account (and the key and
 * its rate limit), not under which fields, so this is the one place that reads them; two answers come out of it:
 *
 * - `key`, what lk keeps per account (the export cache's folder, the rate-limit budget, the account a mirror or an
 *   export --git repository belongs to): the username, else the id, exactly as lk has always read it. It names
 *   files already on disk, so it reads no other spelling: were it to take `name` or `login` too, an instance that
 *   sends one but no username would get a new key, and with it an empty cache, a fresh budget, and its mirror
 *   refused as another account's.
 * - `shown`, what `lk whoami` prints: the first name present under any spelling lk knows, for a person to read.
 */
export interface AccountNames {
  /** The account's key for lk's own files, or undefined when the answer names no account. */
  key: string | undefined;
  /** The account's name as shown (any JSON value; the wording writes it out), or undefined. */
  shown: unknown;
  /** The account's display name, when it has one. */
  displayName: unknown;
}

/** Where `shown` is read, first present first. */
const SHOWN_PATHS = ['account.username', 'account.name', 'account.login', 'account.id', 'user.username'] as const;

export function accountNames(me: unknown): AccountNames {
  const username = getPath(me, 'account.username') ?? getPath(me, 'account.id');
  return {
    key: username === undefined || username === null || username === '' ? undefined : String(username),
    shown: firstOf(me, SHOWN_PATHS),
    displayName: firstOf(me, ['account.displayName', 'account.name']),
  };
}

/**
 * Whose an export (its `account` member, or its profile) or an export --git repository is: its id, and its name for
 * messages. lk diff and lk export --git compare two of these, by id where both have one, else by name.
 */
export function ownerOfExport(account: unknown): { id: string | null; name: string | null } {
  return { id: text(getPath(account, 'id')), name: text(profileNameOf(account)) };
}

/** The key the request was made with, as GET /v1/me reports it: its name, prefix and scopes, under any spelling. */
export const keyNameOf = (me: unknown): unknown => firstOf(me, ['key.name', 'key.label', 'apiKey.name']);
export const keyPrefixOf = (me: unknown): unknown => firstOf(me, ['key.prefix', 'apiKey.prefix']);
export const keyScopesOf = (me: unknown): unknown => firstOf(me, ['key.scopes', 'apiKey.scopes', 'scopes']);

/** When the key expires: null is the server saying never, undefined that it says nothing (so not firstOf, which skips null). */
export const keyExpiresAtOf = (me: unknown): unknown => getPath(me, 'key.expiresAt');

/** The rate limit GET /v1/me reports (an object), under either spelling. */
export const rateLimitOf = (me: unknown): unknown => getPath(me, 'rateLimit') ?? getPath(me, 'rate_limit');

/** A rate-limit object's figures: requests a minute, left this minute, seconds until the budget resets. */
export function rateLimitFiguresOf(rateLimit: unknown): { limit: unknown; remaining: unknown; reset: unknown } {
  return {
    limit: firstOf(rateLimit, ['limit', 'perMinute']),
    remaining: firstOf(rateLimit, ['remaining', 'left']),
    reset: firstOf(rateLimit, ['reset', 'resetSeconds', 'resetIn']),
  };
}

/** A profile's (or an export's account's) username and display name. */
export const profileNameOf = (profile: unknown): unknown => firstOf(profile, ['username', 'name']);
export const profileDisplayNameOf = (profile: unknown): unknown => firstOf(profile, ['displayName', 'display_name']);
