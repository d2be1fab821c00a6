/** Errors the sandbox answers with: always a JSON body `{code, message, ...details}`. */

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra body fields (e.g. `parameter`, `scope`, `domain`). */
    readonly details: Record<string, unknown> = {},
    /** Extra response headers (e.g. Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }

  body(): Record<string, unknown> {
    return { code: this.code, message: this.message, ...this.details };
  }
}

export function invalidParameter(parameter: string, message: string): HttpError {
  return new HttpError(400, 'request.invalid_parameter', message, { parameter });
}

export function notFound(message: string): HttpError {
  return new HttpError(404, 'not_found', message);
}

export function rateLimited(message: string, retryAfterSeconds: number): HttpError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new HttpError(429, 'api.rate_limited', message, { retryAfter: seconds }, { 'Retry-After': String(seconds) });
}

/** A change to a running sandbox (mutations.ts) that names what is not there: the admin routes answer it 404. */
export class MutationRefused extends Error {}
