import { describe, expect, it } from 'vitest';
import { pathOf, scopeForPath } from '../../src/api/endpoints.js';

describe('the endpoints table', () => {
  it.each([
    ['/v1/library', 'library:read'],
    ['/v1/library/e1/history', 'library:read'],
    ['/v1/history', 'library:read'],
    ['/v1/lists/7', 'lists:read'],
    ['/v1/calendar', 'calendar:read'],
    ['/v1/stats/summary', 'stats:read'],
    ['/v1/stats', 'stats:read'],
    ['/v1/profile/achievements', 'profile:read'],
    ['/v1/notifications', 'notifications:read'],
    ['/v1/export', 'export:read'],
  ])('a 403 on %s names %s', (path, scope) => {
    expect(scopeForPath(path)).toBe(scope);
  });

  it('names no scope for /v1/me (any key) or a path of no known area', () => {
    expect(scopeForPath('/v1/me')).toBeUndefined();
    expect(scopeForPath('/v1/unknown')).toBeUndefined();
  });

  it('encodes an id into its path segment, so it cannot step out of it', () => {
    expect(pathOf('entry', 'a/../b')).toBe('/v1/library/a%2F..%2Fb');
    expect(pathOf('entryHistory', 'e 1')).toBe('/v1/library/e%201/history');
    expect(pathOf('library')).toBe('/v1/library');
  });
});
