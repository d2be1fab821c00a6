/**
 * The pick of `lk next --random --seed N`: the same index for the same seed and count, on every machine and Node
 * line. splitmix32 of the seed (its bits spread well even for seeds 1, 2, 3…), as a fraction of 2^32.
 */
export function seededIndex(seed: number, count: number): number {
  let z = (seed >>> 0) ^ Math.floor(seed / 2 ** 32);
  z = (z + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  z ^= z >>> 16;
  return Math.floor(((z >>> 0) / 2 ** 32) * count);
}
