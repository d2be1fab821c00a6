import { UsageError } from '../util/errors.js';
import type { Query } from './client.js';

/** Why `lk api` refuses a path or a field: data only; output/wording/messages.ts words it. */
export type RawInputProblem =
  | 'full-url'
  | 'scheme-relative'
  | 'backslash'
  | 'fragment'
  | 'encoded-separator'
  | 'bad-character'
  | 'dot-segment'
  | 'empty-segment'
  | 'outside-v1'
  | 'field-not-key-value';

/** A path or -F field `lk api` will not send (exit 2, before any request). */
export class RawInputError extends UsageError {
  constructor(
    readonly given: string,
    readonly problem: RawInputProblem,
  ) {
    super(`${problem}: ${given}`);
  }
}

export interface RawRequest {
  /** A path under /v1, exactly as it will be sent. */
  path: string;
  /** The query string that came with the path, as parameters. */
  query: Query;
}

// What may appear in a path: RFC 3986 unreserved and sub-delims, ':', '@', '/', and well-formed %XX escapes.
const PATH_CHARS = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2})*$/;

/**
 * `lk api PATH`: the key must never reach anything outside /v1 (docs/api.md, Keys and scopes.5), so a path is accepted only when it
 * needs no normalisation to be under /v1. Anything a server or proxy could resolve elsewhere is refused: absolute
 * or scheme-relative URLs, dot segments, encoded dots, slashes and backslashes, backslashes themselves.
 */
export function parseRawPath(given: string): RawRequest {
  const raw = underV1(given);
  const refuse = (problem: RawInputProblem): never => {
    throw new RawInputError(given, problem);
  };
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(raw)) refuse('full-url');
  if (raw.startsWith('//')) refuse('scheme-relative');
  if (raw.includes('\\')) refuse('backslash');
  if (raw.includes('#')) refuse('fragment');
  const queryStart = raw.indexOf('?');
  const path = queryStart === -1 ? raw : raw.slice(0, queryStart);
  const search = queryStart === -1 ? '' : raw.slice(queryStart + 1);
  if (/%(2e|2f|5c)/i.test(path)) refuse('encoded-separator');
  if (!PATH_CHARS.test(path)) refuse('bad-character');
  if (path.split('/').some((segment) => segment === '.' || segment === '..')) refuse('dot-segment');
  if (path.includes('//')) refuse('empty-segment');
  if (path !== '/v1' && !path.startsWith('/v1/')) refuse('outside-v1');
  const query: Query = {};
  for (const [name, value] of new URLSearchParams(search)) query[name] = value;
  return { path, query };
}

/**
 * `lk api me` and `lk api library?limit=5` mean /v1/me and /v1/library?limit=5, as `gh api repos/…` needs no slash. Only
 * a name under /v1 is completed (`v1/me` stays refused, as before); the result passes every check like a typed path.
 */
function underV1(raw: string): string {
  if (!/^[A-Za-z0-9_-]/.test(raw) || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(raw) || /^v1(?:[/?]|$)/.test(raw)) return raw;
  return `/v1/${raw}`;
}

/** `-F key=value`, repeatable: the query parameters of `lk api`. */
export function parseField(raw: string, previous: Query = {}): Query {
  const eq = raw.indexOf('=');
  if (eq <= 0) throw new RawInputError(raw, 'field-not-key-value');
  return { ...previous, [raw.slice(0, eq)]: raw.slice(eq + 1) };
}
