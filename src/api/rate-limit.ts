/** The budget as the server last described it in X-RateLimit-* headers. */
export interface Budget {
  limit: number;
  remaining: number;
  /** Epoch ms at which the window starts over. */
  resetAt: number;
}

export function budgetFromHeaders(headers: Record<string, string | string[] | undefined>, now: number): Budget | undefined {
  const limit = numberHeader(headers['x-ratelimit-limit']);
  const remaining = numberHeader(headers['x-ratelimit-remaining']);
  const reset = numberHeader(headers['x-ratelimit-reset']);
  if (limit === undefined || remaining === undefined || reset === undefined) return undefined;
  return { limit, remaining, resetAt: now + reset * 1000 };
}

/** Retry-After in seconds (SPEC.md); an HTTP date is accepted too, as servers in front of an instance may send one. */
export function retryAfterSeconds(value: string | string[] | undefined, now: number): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined || raw.trim() === '') return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}

function numberHeader(value: string | string[] | undefined): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const n = Number(raw);
  return Number.isFinite(n) ? n : undefined;
}
