import { UsageError } from './errors.js';

/**
 * An enumerated value as a person types it (`done`, `Books`, `EN`, `in-progress`) matched to the spelling the API
 * and the config use (`DONE`, `BOOKS`, `en`, `IN_PROGRESS`); undefined when it is none of them.
 */
export function canonicalChoice<T extends string>(raw: string, allowed: readonly T[]): T | undefined {
  const key = (value: string) => value.trim().toLowerCase().replaceAll('-', '_');
  const wanted = key(raw);
  return allowed.find((value) => key(value) === wanted);
}

/** canonicalChoice, or the usage error naming the allowed values. */
export function oneOf<T extends string>(what: string, raw: string, allowed: readonly T[]): T {
  const value = canonicalChoice(raw, allowed);
  if (value !== undefined) return value;
  throw new UsageError(`invalid ${what} "${raw}": use one of ${allowed.join(', ')}`);
}
