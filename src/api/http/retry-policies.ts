import { LkError, TransportError } from '../../util/errors.js';
import { formatDuration } from '../../util/units.js';
import { budgetFromHeaders, retryAfterSeconds, type Budget } from '../rate-limit.js';
import { apiError, rateLimitError, redirectError } from './api-errors.js';
import type { ApiResponse } from './response.js';

/**
 * What to do after a try that did not succeed, decided by named policies, each keeping its own count: redirects
 * (never followed with the key), the rate limit (429: wait out the budget) and server errors (5xx, resets, timeouts:
 * retry with backoff). The first policy that has a say decides; server errors have the last word on anything left.
 */
export type Outcome = { response: ApiResponse } | { error: unknown };
export type Verdict = { retryAfterMs: number; why: string } | { fail: unknown };

export interface RetryPolicy {
  /** A verdict, or undefined when this outcome is not this policy's business. */
  decide(outcome: Outcome): Verdict | undefined;
}

/** What the policies of one request know of the client and the request. */
export interface PolicyContext {
  url: URL;
  now: () => number;
  noWait: boolean;
  maxWaitSeconds: number;
  /** Retries after the first try for 5xx, resets, timeouts and bodies cut short. */
  retries: number;
  timeoutMs: number;
  /** What a 404 means here (RequestOptions.notFound). */
  notFound: string | undefined;
  /** Only a 429 that spent the minute's budget is waited out (RequestOptions.waitOnlyForBudget). */
  waitOnlyForBudget: boolean;
  lastBudget: () => Budget | undefined;
  /** Holds every request of the run until then (the minute's budget is spent). */
  holdAll: (until: number) => void;
}

const MAX_RATE_LIMIT_WAITS = 20;
const RETRYABLE_STATUS = new Set([500, 502, 503, 504]);

/** The policies of one request, in the order they are asked. */
export function retryPolicies(context: PolicyContext): RetryPolicy[] {
  return [redirects(context), rateLimit(context), serverErrors(context)];
}

export function decide(policies: RetryPolicy[], outcome: Outcome): Verdict {
  for (const policy of policies) {
    const verdict = policy.decide(outcome);
    if (verdict) return verdict;
  }
  return { fail: 'error' in outcome ? outcome.error : new LkError(`internal: HTTP ${outcome.response.status} left undecided`) };
}

/** A 3xx is not followed: the key would go wherever the Location says. */
function redirects({ url }: PolicyContext): RetryPolicy {
  return {
    decide: (outcome) =>
      'response' in outcome && outcome.response.status >= 300 && outcome.response.status < 400
        ? { fail: redirectError(outcome.response, url) }
        : undefined,
  };
}

/** A 429: waited out (at most MAX_RATE_LIMIT_WAITS times), unless --no-wait, --max-wait or the caller says otherwise. */
function rateLimit(context: PolicyContext): RetryPolicy {
  let waits = 0;
  const delaySeconds = (response: ApiResponse) => {
    const fromHeader = retryAfterSeconds(response.headers['retry-after'], context.now());
    if (fromHeader !== undefined) return Math.ceil(fromHeader);
    const budget = context.lastBudget();
    return budget ? Math.max(1, Math.ceil((budget.resetAt - context.now()) / 1000)) : 60;
  };
  return {
    decide(outcome) {
      if (!('response' in outcome) || outcome.response.status !== 429) return undefined;
      const seconds = delaySeconds(outcome.response);
      // The minute's budget spent: every request of this run waits, not just this one. (A 429 with budget left is
      // another limit, such as the export hour, and must not stall the rest.)
      const budget = budgetFromHeaders(outcome.response.headers, context.now());
      const budgetSpent = budget ? budget.remaining <= 0 : seconds <= 60;
      if (budgetSpent) context.holdAll(context.now() + seconds * 1000);
      const callerFallsBack = context.waitOnlyForBudget && !budgetSpent;
      if (callerFallsBack || context.noWait || seconds > context.maxWaitSeconds || waits >= MAX_RATE_LIMIT_WAITS) {
        return { fail: rateLimitError(seconds, context.noWait ? 'no-wait' : 'max-wait', context.now()) };
      }
      waits += 1;
      return { retryAfterMs: seconds * 1000, why: `for the rate limit: the server answered 429 (Retry-After ${formatDuration(seconds)})` };
    },
  };
}

/**
 * 5xx, resets, timeouts and bodies cut short: tried again with backoff, up to `retries` times; a 503 naming when the
 * server is back is waited for that long (refused with --no-wait or past --max-wait). Any other answer is the
 * request's error.
 */
function serverErrors(context: PolicyContext): RetryPolicy {
  let failures = 0;
  const firstTry = context.now();
  const retriesLeft = () => failures < context.retries;
  /**
   * A proxy that hangs up is tried again only while the tries fit in --timeout: it answers at once each time, so
   * without this bound a few backoffs would hold lk well past the timeout the user gave.
   */
  const fitsTheDeadline = (error: TransportError) =>
    error.network?.kind !== 'proxy' || context.now() - firstTry + backoffCeilingMs(failures + 1) <= context.timeoutMs;
  return {
    decide(outcome) {
      if ('error' in outcome) {
        const { error } = outcome;
        if (error instanceof TransportError && error.retryable && retriesLeft() && fitsTheDeadline(error)) {
          failures += 1;
          return { retryAfterMs: backoffMs(failures), why: `before retrying: ${error.message} (try ${failures + 1} of ${context.retries + 1})` };
        }
        if (error instanceof TransportError && failures > 0) {
          return { fail: new TransportError(`${error.message} (tried ${failures + 1} times)`, false, error.hint, error.httpsBaseUrl, error.network) };
        }
        return { fail: error };
      }
      const { response } = outcome;
      const refusal = { notFound: context.notFound, tries: failures + 1, now: context.now() };
      const serverDelay = response.status === 503 ? retryAfterSeconds(response.headers['retry-after'], context.now()) : undefined;
      // The server names when it will be back: with --no-wait, or beyond --max-wait, asking sooner is pointless.
      const refusedWait =
        serverDelay === undefined || serverDelay <= 1
          ? undefined
          : context.noWait
            ? 'no-wait'
            : serverDelay > context.maxWaitSeconds
              ? 'max-wait'
              : undefined;
      if (refusedWait) return { fail: apiError(response, context.url, { ...refusal, refusedWait }) };
      if (RETRYABLE_STATUS.has(response.status) && retriesLeft()) {
        failures += 1;
        return {
          retryAfterMs: serverDelay !== undefined ? serverDelay * 1000 : backoffMs(failures),
          why: `before retrying: HTTP ${response.status} from ${context.url.pathname} (try ${failures + 1} of ${context.retries + 1})`,
        };
      }
      return { fail: apiError(response, context.url, refusal) };
    },
  };
}

/** Exponential backoff with full jitter: 0.5–1 s, 1–2 s, 2–4 s… */
export function backoffMs(failures: number): number {
  const ceiling = backoffCeilingMs(failures);
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

function backoffCeilingMs(failures: number): number {
  return 1000 * 2 ** (failures - 1);
}
