import { describe, expect, it } from 'vitest';
import { checksumKey, isWellFormedKey, makeKey } from '../../src/sandbox/index.js';
import { BASE62, toBase62 } from '../../src/sandbox/keys.js';
import { Rng } from '../../src/sandbox/rng.js';
import { crc32 } from 'node:zlib';

describe('key format and checksum', () => {
  it('makeKey gives lk_ plus 49 base-62 characters that pass the checksum', () => {
    const rng = new Rng(7);
    for (let n = 0; n < 200; n += 1) {
      const key = makeKey(rng);
      expect(key).toMatch(/^lk_[0-9A-Za-z]{49}$/);
      expect(isWellFormedKey(key)).toBe(true);
    }
  });

  it('the checksum is CRC-32 of the first 46 characters in base 62, padded to six', () => {
    const key = makeKey(new Rng(1));
    const body = key.slice(0, 46);
    let value = crc32(body);
    let digits = '';
    while (value > 0) {
      digits = BASE62[value % 62] + digits;
      value = Math.floor(value / 62);
    }
    expect(key.slice(46)).toBe(digits.padStart(6, '0'));
    expect(checksumKey(body)).toBe(key.slice(46));
    expect(toBase62(0, 6)).toBe('000000');
  });

  it('changing any one character makes the key fail the checksum', () => {
    const key = makeKey(new Rng(3));
    for (let position = 3; position < key.length; position += 1) {
      const swapped = key[position] === 'a' ? 'b' : 'a';
      expect(isWellFormedKey(key.slice(0, position) + swapped + key.slice(position + 1))).toBe(false);
    }
  });

  it('strings of the wrong shape are not well formed', () => {
    const key = makeKey(new Rng(4));
    for (const bad of ['', 'lk_short', key.slice(0, -1), `${key}0`, key.replace('lk_', 'LK_'), `${key.slice(0, 10)}-${key.slice(11)}`]) {
      expect(isWellFormedKey(bad)).toBe(false);
    }
  });
});
