/**
 * Injected faults, for testing clients against a misbehaving server. The fate of a request depends only on the
 * fault seed and the request's rank among the requests faults apply to (counted from when `faults` was last
 * assigned), so a test sees the same failures on every run.
 */
import { uniformAt } from './rng.js';

export interface FaultOptions {
  /** Faults are deterministic from this seed (default 1). */
  seed?: number;
  /** Only requests whose path starts with one of these get faults (default: every /v1 path). */
  paths?: string[];
  /** Share 0..1 of requests answered 429 api.rate_limited with Retry-After: retryAfter429. */
  rate429?: number;
  /** Retry-After of injected 429s, in seconds (default 1). */
  retryAfter429?: number;
  /** Share answered 500 server.internal_error. */
  rate500?: number;
  /** Share answered 503 server.unavailable with Retry-After: 1. */
  rate503?: number;
  /** Share where the socket is destroyed before any response (connection reset). */
  rateReset?: number;
  /** Share where the headers and Content-Length are sent, then the body is cut mid-way and the socket destroyed. */
  rateTruncate?: number;
  /** Delay added before every response, in ms. */
  latencyMs?: number;
  /** With rateStall: how long a stalled request waits before being answered (default 60000 ms). */
  stallMs?: number;
  /** Share of requests that stall. */
  rateStall?: number;
  /** Answer 200 with an HTML login page instead of JSON (as a captive portal or a wrong base URL would). */
  htmlBody?: boolean;
  /** Each GET /v1/library adds this many new (newest) entries to the account before answering. */
  addEntriesPerRequest?: number;
}

export type FaultFate = 'none' | '429' | '500' | '503' | 'reset' | 'truncate' | 'stall';

export const DEFAULT_FAULT_SEED = 1;
export const DEFAULT_STALL_MS = 60_000;

/** Whether faults apply to a request for `pathname`. */
export function faultsApply(faults: FaultOptions, pathname: string): boolean {
  const paths = faults.paths ?? ['/v1/'];
  return paths.some((prefix) => pathname.startsWith(prefix) || pathname === prefix.replace(/\/$/, ''));
}

/** True when the options inject anything at all (so that plain runs skip the fault machinery). */
export function faultsActive(faults: FaultOptions): boolean {
  return Boolean(
    faults.rate429 ||
    faults.rate500 ||
    faults.rate503 ||
    faults.rateReset ||
    faults.rateTruncate ||
    faults.rateStall ||
    faults.latencyMs ||
    faults.htmlBody ||
    faults.addEntriesPerRequest,
  );
}

/** The fate of the n-th request faults apply to: one uniform draw laid over the rates, in a fixed order. */
export function faultFate(faults: FaultOptions, n: number): FaultFate {
  const roll = uniformAt(faults.seed ?? DEFAULT_FAULT_SEED, n);
  const rates: Array<[number | undefined, FaultFate]> = [
    [faults.rate429, '429'],
    [faults.rate500, '500'],
    [faults.rate503, '503'],
    [faults.rateReset, 'reset'],
    [faults.rateTruncate, 'truncate'],
    [faults.rateStall, 'stall'],
  ];
  let threshold = 0;
  for (const [rate, fate] of rates) {
    threshold += Math.max(0, rate ?? 0);
    if (roll < threshold) return fate;
  }
  return 'none';
}

export const HTML_LOGIN_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Sign in</title></head>
<body>
<h1>Sign in</h1>
<form method="post" action="/login"><input name="email" type="email"><input name="password" type="password"><button>Sign in</button></form>
</body>
</html>
`;
