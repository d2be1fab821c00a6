/**
 * An enumerated value as a person types it (`done`, `Books`, `EN`, `in-progress`) matched to the spelling the API
 * and the config use (`DONE`, `BOOKS`, `en`, `IN_PROGRESS`); undefined when it is none of them.
 */
export function canonicalChoice<T extends string>(raw: string, allowed: readonly T[]): T | undefined {
  const key = (value: string) => value.trim().toLowerCase().replaceAll('-', '_');
  const wanted = key(raw);
  return allowed.find((value) => key(value) === wanted);
}
