/** SPEC.md §5: the scope each endpoint needs, so a 403 can name the one missing. */
const SCOPE_BY_PATH: Array<[RegExp, string]> = [
  [/^\/v1\/(library|history)(\/|$)/, 'library:read'],
  [/^\/v1\/lists(\/|$)/, 'lists:read'],
  [/^\/v1\/calendar(\/|$)/, 'calendar:read'],
  [/^\/v1\/stats(\/|$)/, 'stats:read'],
  [/^\/v1\/reviews(\/|$)/, 'reviews:read'],
  [/^\/v1\/profile(\/|$)/, 'profile:read'],
  [/^\/v1\/notifications(\/|$)/, 'notifications:read'],
  [/^\/v1\/export(\/|$)/, 'export:read'],
];

export function scopeForPath(path: string): string | undefined {
  return SCOPE_BY_PATH.find(([pattern]) => pattern.test(path))?.[1];
}
