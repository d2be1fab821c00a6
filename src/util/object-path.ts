/**
 * Each path's steps, split once: the program's own paths are few and read for every item of every listing. Bounded,
 * as --fields and an MCP client's fields are paths too, and lk serve and lk mcp run for days.
 */
const stepsOf = new Map<string, readonly string[]>();
const MOST_PATHS_KEPT = 512;

/** A dot path into nested objects (`work.title`): undefined where any step is missing or not an object. */
export function getPath(value: unknown, path: string): unknown {
  let steps = stepsOf.get(path);
  if (!steps) {
    steps = path.split('.');
    if (stepsOf.size < MOST_PATHS_KEPT) stepsOf.set(path, steps);
  }
  let current: unknown = value;
  for (const part of steps) {
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
