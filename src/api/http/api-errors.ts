import { ApiError, type LkError, RateLimitError, TransportError } from '../../util/errors.js';
import { formatDuration, formatMoment } from '../../util/units.js';
import { scopeForPath } from '../endpoints.js';
import { retryAfterSeconds } from '../rate-limit.js';
import type { ApiResponse } from './response.js';

/** The typed errors of an answer that is not a success: the key refused, a scope missing, not found, a limit, a redirect. */

/** A server's message is quoted, not published: a few hundred characters say what went wrong. */
const MAX_SERVER_MESSAGE = 300;

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

export function rateLimitError(seconds: number, refusedBy: 'no-wait' | 'max-wait', now: number): RateLimitError {
  const resetAt = new Date(now + seconds * 1000);
  return new RateLimitError(
    `rate limited (api.rate_limited): the budget resets at ${formatMoment(resetAt.getTime(), now)}`,
    resetAt,
    undefined,
    refusedBy,
  );
}

export interface Refusal {
  /** What a 404 means here, e.g. "library entry 42". */
  notFound: string | undefined;
  /** Tries made, the last included. */
  tries: number;
  /** The server asked for a wait lk would not make. */
  refusedWait?: 'no-wait' | 'max-wait' | undefined;
  now: number;
}

export function apiError(response: ApiResponse, url: URL, { notFound, tries, refusedWait, now }: Refusal): ApiError {
  const body = safeJson(response.text);
  const code = typeof body?.code === 'string' ? cut(body.code, 80) : undefined;
  const serverMessage = typeof body?.message === 'string' ? cut(body.message, MAX_SERVER_MESSAGE) : undefined;
  const details = {
    status: response.status,
    code,
    body,
    retryAfterSeconds: retryAfterSeconds(response.headers['retry-after'], now),
    refusedWait,
  };
  const suffix = code ? ` (${code})` : '';
  if (response.status === 401) {
    return new ApiError(`the key was refused${serverMessage ? `: ${serverMessage}` : ''}${suffix}`, details);
  }
  if (response.status === 403 && code === 'user.domain_disabled') {
    const domain = url.searchParams.get('domain') ?? (typeof body?.domain === 'string' ? body.domain : 'that');
    return new ApiError(`the ${domain} domain is disabled for this account${suffix}`, { ...details, domain });
  }
  if (response.status === 403) {
    const scope = (typeof body?.scope === 'string' ? body.scope : undefined) ?? scopeForPath(url.pathname);
    const what = scope ? `the key lacks the scope ${scope}` : 'the key is not allowed to do this';
    return new ApiError(`${what}${suffix}`, { ...details, scope });
  }
  if (response.status === 404) {
    return new ApiError(notFound ? `no ${notFound}` : `not found: ${url.pathname}${suffix}`, details);
  }
  const tried = tries > 1 ? ` (tried ${tries} times)` : '';
  const message = serverMessage ?? `HTTP ${response.status}`;
  const asked =
    refusedWait && details.retryAfterSeconds !== undefined ? `; the server asked to retry after ${formatDuration(details.retryAfterSeconds)}` : '';
  return new ApiError(`${message}${suffix}${tried}${asked}`, details);
}

export function redirectError(response: ApiResponse, url: URL): LkError {
  const location = String(response.headers.location ?? '');
  let httpsBaseUrl: string | undefined;
  try {
    const target = new URL(location, url);
    if (url.protocol === 'http:' && target.protocol === 'https:' && target.hostname === url.hostname) {
      httpsBaseUrl = `${target.origin}${url.pathname.replace(/\/v1(\/.*)?$/, '')}`;
    }
  } catch {
    // a Location we cannot parse is still worth naming
  }
  return new TransportError(
    `the server answered ${response.status} redirecting to ${location || 'nowhere'}; lk does not follow redirects with the key`,
    false,
    httpsBaseUrl ? undefined : 'Check the base URL.',
    httpsBaseUrl,
  );
}

function safeJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
