/** A dot path into nested objects (`work.title`): undefined where any step is missing or not an object. */
export function getPath(value: unknown, path: string): unknown {
  let current: unknown = value;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** The first value present (not undefined, null or empty) among paths: fields docs/api.md does not name may be spelt differently on another instance. */
export function firstOf(item: unknown, paths: readonly string[]): unknown {
  for (const path of paths) {
    const value = getPath(item, path);
    if (value !== undefined && value !== null && value !== '') return value;
  }
  return undefined;
}
