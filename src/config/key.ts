/**
 * What docs/api.md fixes about keys: `lk_` and 49 characters from 0-9A-Za-z. The checksum algorithm is not shown,
 * so the client checks only the format and leaves the checksum to the server.
 */
export const KEY_PATTERN = /^lk_[0-9A-Za-z]{49}$/;

export function isWellFormedKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/**
 * What is wrong with a string that is not a key, by its length and shape only: it may be anything (a password file
 * named by mistake), so none of its characters are shown.
 */
export function describeMalformedKey(text: string): string {
  const length = [...text].length;
  const shape = !text.startsWith('lk_')
    ? 'does not start with lk_'
    : /[^0-9A-Za-z]/.test(text.slice(3))
      ? 'holds characters other than letters and digits after lk_'
      : `has ${length - 3} characters after lk_, not 49`;
  return `${length} character${length === 1 ? '' : 's'}, ${shape}`;
}

/** The most a key file or standard input is read for a key: a key is 52 bytes, a few lines of comment fit too. */
export const MAX_KEY_INPUT_BYTES = 4096;
