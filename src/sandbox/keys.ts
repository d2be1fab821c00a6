/**
 * API key format (docs/api.md, Keys and scopes.2): `lk_` followed by 49 characters of 0-9A-Za-z; the last six are a checksum of
 * the first 46 characters (prefix included), so that a mistyped or truncated key is refused without any lookup.
 *
 * Checksum: CRC-32 (zlib.crc32, the IEEE polynomial) of those 46 ASCII characters, written in base 62 with the
 * alphabet 0-9A-Za-z, most significant digit first, left-padded with "0" to six characters.
 */
import { crc32 } from 'node:zlib';
import type { Rng } from './rng.js';

export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const KEY_PREFIX = 'lk_';
export const KEY_PATTERN = /^lk_[0-9A-Za-z]{49}$/;
export const KEY_LENGTH = 52;
export const CHECKSUM_LENGTH = 6;
/** Characters covered by the checksum: the prefix and the 43 random characters. */
export const KEY_BODY_LENGTH = KEY_LENGTH - CHECKSUM_LENGTH;

/** `value` (a non-negative integer) in base 62, left-padded with "0" to `width`. */
export function toBase62(value: number, width: number): string {
  let out = '';
  let rest = Math.floor(value);
  do {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  } while (rest > 0);
  return out.padStart(width, '0');
}

/** The six checksum characters for the first 46 characters of a key. */
export function checksumKey(body: string): string {
  return toBase62(crc32(body), CHECKSUM_LENGTH);
}

/** True when `key` has the shape lk_ + 49 base-62 characters (the checksum is not checked). */
export function matchesKeyPattern(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** True when `key` has the right shape and its last six characters are the checksum of the rest. */
export function isWellFormedKey(key: string): boolean {
  if (!matchesKeyPattern(key)) return false;
  return checksumKey(key.slice(0, KEY_BODY_LENGTH)) === key.slice(KEY_BODY_LENGTH);
}

/** A new key: prefix, 43 random characters from `rng`, checksum. */
export function makeKey(rng: Rng): string {
  const body = KEY_PREFIX + rng.string(BASE62, KEY_BODY_LENGTH - KEY_PREFIX.length);
  return body + checksumKey(body);
}
