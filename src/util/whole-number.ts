import { UsageError } from './errors.js';

/**
 * A whole number as typed (a flag, a query parameter), from `min` to `max`: the number, or the usage error every
 * surface words the same (`invalid --limit "0": expected a whole number from 1 to 100`).
 */
export function wholeNumber(flag: string, raw: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `a whole number ≥ ${min}` : `a whole number from ${min} to ${max}`;
    throw new UsageError(`invalid ${flag} "${raw}": expected ${range}`);
  }
  return value;
}
