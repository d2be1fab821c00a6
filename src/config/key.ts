/**
 * What SPEC.md fixes about keys: `lk_` and 49 characters from 0-9A-Za-z. The checksum algorithm is not shown,
 * so the client checks only the format and leaves the checksum to the server.
 */
export const KEY_PATTERN = /^lk_[0-9A-Za-z]{49}$/;

export function isWellFormedKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** `lk_AbC…9xYz`: enough to tell keys apart, never enough to use one. */
export function maskKey(key: string): string {
  if (key.length < 12) return '…';
  return `${key.slice(0, 6)}…${key.slice(-4)}`;
}
