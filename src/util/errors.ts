/** Errors that carry their meaning: each knows the exit code it has (lk help exit-codes) and an optional hint line. */

export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  auth: 3,
  forbidden: 4,
  rateLimited: 5,
  notFound: 6,
  interrupted: 130,
} as const;

/**
 * What marks lk's errors in every copy of this file: dist/report.cjs and dist/mcp.cjs are bundles of their own, with
 * their own LkError class, and an error they throw must still get its message and exit code from src/cli.ts.
 */
const LK_ERROR = Symbol.for('lk.error');

export class LkError extends Error {
  /** `x instanceof LkError` holds for lk's errors from any bundle; its subclasses are told apart as usual. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (this !== LkError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && (value as { [LK_ERROR]?: unknown })[LK_ERROR] === true;
  }

  readonly [LK_ERROR] = true;
  readonly exitCode: number;
  readonly hint: string | undefined;
  constructor(message: string, exitCode: number = ExitCode.failure, hint?: string) {
    super(message);
    this.name = new.target.name;
    this.exitCode = exitCode;
    this.hint = hint;
  }
}

/** A verdict rather than a failure: the exit code says it (lk diff --exit-code), and nothing is printed. */
export class SilentExit extends LkError {
  constructor(exitCode: number) {
    super('', exitCode);
  }
}

/** Bad input, caught before any request is sent. */
export class UsageError extends LkError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.usage, hint);
  }
}

/** No key, a malformed key, or a 401. */
export class AuthError extends LkError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.auth, hint);
  }
}

/** No key anywhere for the profile: nothing configured, as opposed to a key that could not be read or was refused. */
export class NotLoggedInError extends AuthError {}

export interface ApiErrorDetails {
  status: number;
  code?: string | undefined;
  retryAfterSeconds?: number | undefined;
  body?: unknown;
  /** 403 auth.api_key_forbidden: the scope the endpoint needs, when known. */
  scope?: string | undefined;
  /** 403 user.domain_disabled: the domain asked for. */
  domain?: string | undefined;
  /** A 503 naming a wait that the run's own limits refused (--no-wait, --max-wait): not retried. */
  refusedWait?: 'no-wait' | 'max-wait' | undefined;
}

/** An error response from the server. The exit code follows the status. */
export class ApiError extends LkError {
  readonly status: number;
  readonly code: string | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly body: unknown;
  readonly scope: string | undefined;
  readonly domain: string | undefined;
  readonly refusedWait: 'no-wait' | 'max-wait' | undefined;
  constructor(message: string, details: ApiErrorDetails, hint?: string) {
    super(message, exitCodeForStatus(details.status), hint);
    this.status = details.status;
    this.code = details.code;
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.body = details.body;
    this.scope = details.scope;
    this.domain = details.domain;
    this.refusedWait = details.refusedWait;
  }
}

/** Rate limited and not retried: --no-wait, a wait beyond --max-wait, or the export hour not over. */
export class RateLimitError extends LkError {
  readonly resetAt: Date;
  /** Which limit of the run's own refused the wait: no waiting at all, or a wait longer than allowed. */
  readonly refusedBy: 'no-wait' | 'max-wait' | undefined;
  constructor(message: string, resetAt: Date, hint?: string, refusedBy?: 'no-wait' | 'max-wait') {
    super(message, ExitCode.rateLimited, hint);
    this.resetAt = resetAt;
    this.refusedBy = refusedBy;
  }
}

/** What a proxy did wrong: did not answer in time, refused the tunnel, could not be reached, hung up. */
export type ProxyFailure =
  | { what: 'no-answer'; withinMs: number }
  | { what: 'refused-tunnel'; status: string }
  | { what: 'unreachable'; cause: string }
  | { what: 'hung-up'; on: 'connect' | 'forwarded' };

/**
 * What went wrong on the way to the instance, as data: output/wording/messages.ts words it (networkProblemMessage, handed to
 * the API client by the command line) and the advice (hintFor).
 */
export type NetworkProblem =
  | {
      kind: 'tls';
      reason: 'unknown-authority' | 'expired' | 'not-yet-valid' | 'name-mismatch' | 'not-tls' | 'other';
      host: string;
      hostname: string;
      /** Node's or OpenSSL's code. */
      code?: string | undefined;
      /** name-mismatch: the names the certificate is for, when known. */
      names?: string | undefined;
      /** other: what Node said. */
      detail?: string | undefined;
    }
  | { kind: 'tls-port'; host: string }
  | { kind: 'refused'; host: string }
  | { kind: 'proxy'; proxy: string; variable: string | undefined; host: string; failure: ProxyFailure };

/** A failure the API client names in a person's words (a port that may want TLS keeps its plain HTTP message). */
export type WordedNetworkProblem = Exclude<NetworkProblem, { kind: 'tls-port' }>;

/** Words for a network problem (the command line's), given to the API client, which has none of its own. */
export type NetworkWording = (problem: WordedNetworkProblem) => string;

/** The network or the response itself failed: refused, reset, timed out, cut short, not JSON. */
export class TransportError extends LkError {
  readonly retryable: boolean;
  /** A redirect from http to https on the same host: the base URL that would work. */
  readonly httpsBaseUrl: string | undefined;
  readonly network: NetworkProblem | undefined;
  constructor(message: string, retryable: boolean, hint?: string, httpsBaseUrl?: string, network?: NetworkProblem) {
    super(message, ExitCode.failure, hint);
    this.retryable = retryable;
    this.httpsBaseUrl = httpsBaseUrl;
    this.network = network;
  }
}

export function exitCodeForStatus(status: number): number {
  if (status === 401) return ExitCode.auth;
  if (status === 403) return ExitCode.forbidden;
  if (status === 404) return ExitCode.notFound;
  if (status === 429) return ExitCode.rateLimited;
  if (status === 400 || status === 422) return ExitCode.usage;
  return ExitCode.failure;
}

/** A 200 whose body is not what docs/api.md promises (a broken envelope, a listing cut short, pages that repeat). */
export class UnexpectedResponseError extends LkError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.failure, hint);
  }
}
