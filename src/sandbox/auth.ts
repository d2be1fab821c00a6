/**
 * API keys: the demo keys the sandbox hands out, and authentication of the Authorization header (docs/api.md, Keys and scopes).
 * The format and checksum are checked before any lookup, as a real instance does to refuse typos cheaply.
 */
import { HttpError } from './errors.js';
import { isWellFormedKey, makeKey, matchesKeyPattern, toBase62 } from './keys.js';
import { DAY_MS, iso } from './model.js';
import { Rng, hash32 } from './rng.js';

export const ALL_SCOPES = [
  'library:read',
  'lists:read',
  'calendar:read',
  'stats:read',
  'reviews:read',
  'profile:read',
  'notifications:read',
  'export:read',
] as const;

export interface KeyRecord {
  id: string;
  name: string;
  key: string;
  account: string;
  scopes: string[];
  description: string;
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
}

interface DemoKeySpec {
  name: string;
  account: string;
  scopes: readonly string[];
  description: string;
  /** Expiry relative to the sandbox start (ms); null = never. */
  expiresIn: number | null;
  revoked?: boolean;
}

/** The demo keys, in the order they are listed. Keys are derived from (seed, name): adding one changes no other. */
const DEMO_KEYS: readonly DemoKeySpec[] = [
  { name: 'full', account: 'demo', scopes: ALL_SCOPES, expiresIn: null, description: 'every scope, never expires' },
  { name: 'library', account: 'demo', scopes: ['library:read'], expiresIn: 90 * DAY_MS, description: 'only library:read' },
  { name: 'nogames', account: 'reader', scopes: ALL_SCOPES, expiresIn: null, description: 'account "reader" (French): GAMES disabled, every scope' },
  { name: 'expired', account: 'demo', scopes: ALL_SCOPES, expiresIn: -DAY_MS, description: 'expired yesterday: 401 auth.key_expired' },
  { name: 'revoked', account: 'demo', scopes: ALL_SCOPES, expiresIn: null, revoked: true, description: 'revoked: 401 auth.key_revoked' },
  {
    name: 'other',
    account: 'demo',
    scopes: ALL_SCOPES,
    expiresIn: 365 * DAY_MS,
    description: 'a second full key of "demo", sharing its rate-limit budget',
  },
  { name: 'calendar', account: 'demo', scopes: ['calendar:read'], expiresIn: 30 * DAY_MS, description: 'only calendar:read' },
];

export function buildDemoKeys(seed: number, startedAt: number): KeyRecord[] {
  return DEMO_KEYS.map((spec) => ({
    id: 'k' + toBase62(hash32(seed, 'key-id', spec.name), 6),
    name: spec.name,
    key: makeKey(Rng.derive(seed, 'key', spec.name)),
    account: spec.account,
    scopes: [...spec.scopes],
    description: spec.description,
    createdAt: startedAt - (40 + (hash32(seed, 'key-age', spec.name) % 300)) * DAY_MS,
    expiresAt: spec.expiresIn === null ? null : startedAt + spec.expiresIn,
    revokedAt: spec.revoked ? startedAt - 2 * DAY_MS : null,
  }));
}

/** The key from an Authorization header value, or a 401 saying what is wrong with it. */
export function authenticate(header: string | undefined, keys: ReadonlyMap<string, KeyRecord>, now: number): KeyRecord | HttpError {
  if (header === undefined || header.trim() === '') {
    return unauthorized('auth.missing_key', 'No API key: send the header "Authorization: Bearer <API key>".');
  }
  const match = /^Bearer +(\S+)\s*$/i.exec(header);
  if (!match) return unauthorized('auth.malformed_key', 'The Authorization header must be "Bearer <API key>".');
  const presented = match[1]!;
  if (!matchesKeyPattern(presented))
    return unauthorized('auth.malformed_key', 'The API key is malformed: expected lk_ followed by 49 letters and digits.');
  if (!isWellFormedKey(presented)) return unauthorized('auth.invalid_checksum', 'The API key fails its checksum: it was mistyped or cut short.');
  const key = keys.get(presented);
  if (!key) return unauthorized('auth.invalid_key', 'Unknown API key.');
  if (key.revokedAt !== null) return unauthorized('auth.key_revoked', `This API key was revoked on ${iso(key.revokedAt)}.`);
  if (key.expiresAt !== null && key.expiresAt <= now) return unauthorized('auth.key_expired', `This API key expired on ${iso(key.expiresAt)}.`);
  return key;
}

function unauthorized(code: string, message: string): HttpError {
  return new HttpError(401, code, message, {}, { 'WWW-Authenticate': `Bearer realm="lk", error="invalid_token"` });
}

export function forbiddenScope(scope: string): HttpError {
  return new HttpError(403, 'auth.api_key_forbidden', `This API key lacks the scope ${scope}, which this endpoint needs.`, { scope });
}
