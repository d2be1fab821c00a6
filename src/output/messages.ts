import { ApiError, type LkError, RateLimitError, TransportError } from '../util/errors.js';
import { formatMoment } from '../util/units.js';

/**
 * The advice line under an error: what to do next, naming the commands and flags a person would type. api/ errors
 * carry only data (status, scope, domain, which limit refused a wait); the words are chosen here, in one place.
 */
export function hintFor(error: LkError, now: number = Date.now()): string | undefined {
  if (error.hint) return error.hint;
  if (error instanceof ApiError) {
    if (error.status === 401) return 'Log in again with a valid key: `lk auth login`.';
    if (error.refusedWait === 'no-wait') return 'Try again later (--no-wait does not wait for the server).';
    if (error.refusedWait === 'max-wait') return 'Try again later, or allow a longer --max-wait.';
    if (error.status === 403 && error.domain !== undefined) return 'Enable it in the web app, or leave out --domain.';
    if (error.status === 403 && error.scope !== undefined) {
      return `Create a key with ${error.scope} in the web app's integrations settings, then run \`lk auth login\`.`;
    }
    return undefined;
  }
  if (error instanceof RateLimitError && error.refusedBy) {
    const when = formatMoment(error.resetAt.getTime(), now);
    return error.refusedBy === 'no-wait' ? `Try again after ${when}.` : `Try again after ${when}, or allow a longer --max-wait.`;
  }
  if (error instanceof TransportError && error.httpsBaseUrl) return `The instance wants https: use --base-url ${error.httpsBaseUrl}.`;
  return undefined;
}
