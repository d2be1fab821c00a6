import { describe, expect, it } from 'vitest';
import { EXPORT_INTERVAL_MS } from '../../src/export/obtain.js';
import {
  ALWAYS_READ_AREAS,
  areasFromEndpoints,
  leftOutBecause,
  pagesStandInFor,
  planSource,
  tablesOf,
  type SourceFacts,
} from '../../src/mirror/sync/plan.js';
import { ApiError, RateLimitError, TransportError } from '../../src/util/errors.js';

// What lk sync reads, as data (src/mirror/sync/plan.ts): the source of the library and history, the collections
// read from their endpoints, and what a 403 or 404 leaves out — decided without a server or a mirror.

const NOW = Date.parse('2026-06-01T12:00:00Z');
const MINUTE = 60_000;
const facts = (over: Partial<SourceFacts>): SourceFacts => ({
  cachedAt: undefined,
  snapshotAt: undefined,
  now: NOW,
  full: false,
  ...over,
});

describe('where a sync reads the library and history from', () => {
  it('a new export when none is cached, or the cached one is an hour old', () => {
    expect(planSource(facts({}))).toBe('export');
    expect(planSource(facts({ cachedAt: NOW - EXPORT_INTERVAL_MS, snapshotAt: NOW - 2 * EXPORT_INTERVAL_MS }))).toBe('export');
    expect(planSource(facts({ cachedAt: NOW - EXPORT_INTERVAL_MS, full: true }))).toBe('export');
  });

  it('the cached export within the hour when it is newer than the mirror (lk export just ran)', () => {
    expect(planSource(facts({ cachedAt: NOW - MINUTE }))).toBe('cached-export');
    expect(planSource(facts({ cachedAt: NOW - MINUTE, snapshotAt: NOW - 2 * MINUTE }))).toBe('cached-export');
  });

  it('the pages within the hour when the mirror already holds the cached export, and with --full', () => {
    expect(planSource(facts({ cachedAt: NOW - MINUTE, snapshotAt: NOW - MINUTE }))).toBe('pages');
    expect(planSource(facts({ cachedAt: NOW - 2 * MINUTE, snapshotAt: NOW - MINUTE }))).toBe('pages');
    expect(planSource(facts({ cachedAt: NOW - MINUTE, full: true }))).toBe('pages');
  });

  it('falls back to the pages when the export is refused, not when the server fails', () => {
    expect(pagesStandInFor(new RateLimitError('the hour is not over', new Date(NOW + MINUTE)))).toBe(true);
    expect(pagesStandInFor(new ApiError('forbidden', { status: 403, code: 'auth.api_key_forbidden' }))).toBe(true);
    expect(pagesStandInFor(new TransportError('certificate refused', false))).toBe(true);
    expect(pagesStandInFor(new TransportError('connection reset', true))).toBe(false);
    expect(pagesStandInFor(new ApiError('server error', { status: 500 }))).toBe(false);
    expect(pagesStandInFor(new SyntaxError('not JSON'))).toBe(false);
  });
});

describe('the collections read from their endpoints', () => {
  it('after the pages: every collection an export may carry, in the order of the sync', () => {
    expect(areasFromEndpoints(new Set())).toEqual(['lists', 'reviews', 'achievements', 'notifications', 'profile']);
  });

  it('after an export: only those it left out', () => {
    expect(areasFromEndpoints(new Set(['library', 'history', 'lists', 'reviews']))).toEqual(['achievements', 'notifications', 'profile']);
    expect(areasFromEndpoints(new Set(['library', 'history', 'lists', 'reviews', 'achievements', 'notifications', 'profile']))).toEqual([]);
  });

  it('calendar and stats every time', () => {
    expect(ALWAYS_READ_AREAS).toEqual(['calendar', 'stats']);
  });

  it('lists fill two tables, left alone together', () => {
    expect(tablesOf('lists')).toEqual(['lists', 'list_items']);
    expect(tablesOf('achievements')).toEqual(['achievements']);
  });
});

describe('what a 403 or 404 leaves out', () => {
  it("a 403 names the scope the area's endpoint needs, from the endpoint table", () => {
    const forbidden = new ApiError('forbidden', { status: 403, code: 'auth.api_key_forbidden' });
    expect(leftOutBecause('achievements', forbidden)).toBe('the key lacks profile:read (auth.api_key_forbidden)');
    expect(leftOutBecause('stats', forbidden)).toBe('the key lacks stats:read (auth.api_key_forbidden)');
    expect(leftOutBecause('lists', new ApiError('forbidden', { status: 403 }))).toBe('the key lacks lists:read (403)');
  });

  it('a 404 says the instance has no such endpoint', () => {
    expect(leftOutBecause('notifications', new ApiError('not found', { status: 404 }))).toBe('the instance has no such endpoint (404)');
  });

  it('any other error ends the sync', () => {
    expect(leftOutBecause('calendar', new ApiError('server error', { status: 500 }))).toBeUndefined();
    expect(leftOutBecause('calendar', new TransportError('connection reset', true))).toBeUndefined();
  });
});
