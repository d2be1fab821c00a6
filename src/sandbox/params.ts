/** Query-parameter rules (docs/api.md, Endpoints): each parser returns the value or throws a 400 naming the parameter. */
import { invalidParameter } from './errors.js';
import { DAY_MS, DOMAINS, LANGS, PHASES, type Domain, type Lang, type Phase } from './model.js';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
export const SORTS = ['added', 'title', 'rating', 'finished'] as const;
export type Sort = (typeof SORTS)[number];
export type Order = 'asc' | 'desc';

function oneOf<T extends string>(query: URLSearchParams, name: string, allowed: readonly T[]): T | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw invalidParameter(name, `${name} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)})`);
  }
  return value as T;
}

function integer(query: URLSearchParams, name: string, min: number, max: number, fallback: number): number {
  const value = query.get(name);
  if (value === null) return fallback;
  const range = max === Number.MAX_SAFE_INTEGER ? `from ${min}` : `from ${min} to ${max}`;
  if (!/^[0-9]+$/.test(value)) throw invalidParameter(name, `${name} must be an integer ${range} (got ${JSON.stringify(value)})`);
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw invalidParameter(name, `${name} must be an integer ${range} (got ${JSON.stringify(value)})`);
  return n;
}

export interface Paging {
  page: number;
  limit: number;
}

export function paging(query: URLSearchParams): Paging {
  return { page: integer(query, 'page', 1, Number.MAX_SAFE_INTEGER, 1), limit: integer(query, 'limit', 1, MAX_LIMIT, DEFAULT_LIMIT) };
}

/** The paginated envelope (docs/api.md, Resources) for one page of `all`. */
export function envelope<T, R>(all: readonly T[], { page, limit }: Paging, render: (item: T) => R): { items: R[]; hasMore: boolean; total: number } {
  const start = (page - 1) * limit;
  const items = start >= all.length ? [] : all.slice(start, start + limit).map(render);
  return { items, hasMore: start + limit < all.length, total: all.length };
}

export function lang(query: URLSearchParams, fallback: Lang): Lang {
  return oneOf(query, 'lang', LANGS) ?? fallback;
}

/** The domain filter: unknown values are a 400 here; a disabled domain is a 403 decided by the caller. */
export function domain(query: URLSearchParams): Domain | undefined {
  return oneOf(query, 'domain', DOMAINS);
}

export function phase(query: URLSearchParams): Phase | undefined {
  return oneOf(query, 'phase', PHASES);
}

export function sort(query: URLSearchParams): Sort {
  return oneOf(query, 'sort', SORTS) ?? 'added';
}

export function order(query: URLSearchParams): Order {
  return oneOf(query, 'order', ['asc', 'desc'] as const) ?? 'desc';
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:\d{2})$/;

function validDay(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * A history window bound: YYYY-MM-DD (a whole UTC day) or an ISO 8601 date-time with Z or an offset.
 * Returns inclusive bounds in ms: `from` a day → its first ms; `to` a day → its last ms.
 */
export function windowBound(query: URLSearchParams, name: 'from' | 'to'): number | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  const bad = () =>
    invalidParameter(
      name,
      `${name} must be a date (YYYY-MM-DD) or an ISO 8601 date-time such as 2026-01-31T23:59:59Z (got ${JSON.stringify(value)})`,
    );
  const dateOnly = DATE_ONLY.exec(value);
  if (dateOnly) {
    const [year, month, day] = [Number(dateOnly[1]), Number(dateOnly[2]), Number(dateOnly[3])];
    if (!validDay(year, month, day)) throw bad();
    const start = Date.UTC(year, month - 1, day);
    return name === 'from' ? start : start + DAY_MS - 1;
  }
  const dateTime = DATE_TIME.exec(value);
  if (!dateTime) throw bad();
  const [hour, minute, second] = [Number(dateTime[4]), Number(dateTime[5]), Number(dateTime[6] ?? 0)];
  if (!validDay(Number(dateTime[1]), Number(dateTime[2]), Number(dateTime[3])) || hour > 23 || minute > 59 || second > 59) throw bad();
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw bad();
  return ms;
}
