import { RawInputError, type RawInputProblem } from '../../api/raw-path.js';
import { ApiError, type LkError, type NetworkProblem, type WordedNetworkProblem, RateLimitError, TransportError } from '../../util/errors.js';
import { formatMoment } from '../../util/units.js';
import type { ConnectionNotice } from '../../api/connect.js';

/** The error line (after "lk: "): most errors carry their own; those of api/ that carry only data are worded here. */
export function messageFor(error: LkError): string {
  if (error instanceof RawInputError) {
    if (error.problem === 'field-not-key-value') return `invalid -F "${error.given}": expected key=value, e.g. -F limit=5`;
    return `refusing path "${error.given}": ${RAW_PATH_REFUSALS[error.problem]}`;
  }
  return error.message;
}

const RAW_PATH_REFUSALS: Record<Exclude<RawInputProblem, 'field-not-key-value'>, string> = {
  'full-url': 'a full URL; lk api takes a path and sends it to the configured instance',
  'scheme-relative': 'a scheme-relative URL names another host',
  backslash: 'backslashes are not allowed',
  fragment: 'a fragment is not part of a request',
  'encoded-separator': 'percent-encoded dots, slashes and backslashes are not allowed',
  'bad-character': 'it holds characters a path cannot (spaces, quotes, control characters or a bad % escape)',
  'dot-segment': "'.' and '..' segments are not allowed",
  'empty-segment': 'empty path segments are not allowed',
  'outside-v1': 'only paths under /v1 are API paths',
};

/**
 * The advice line under an error: what to do next, naming the commands and flags a person would type. api/ errors
 * carry only data (status, scope, domain, which limit refused a wait); the words are chosen here, in one place.
 */
export function hintFor(error: LkError, now: number = Date.now()): string | undefined {
  if (error.hint) return error.hint;
  if (error instanceof RawInputError && error.problem !== 'field-not-key-value') {
    return 'Give a path under /v1, e.g. `lk api /v1/me` or `lk api /v1/library -F limit=5`.';
  }
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
  if (error instanceof TransportError && error.network) return networkHint(error.network);
  return undefined;
}

/** The sentence for a failure on the way to the instance (the API client is given this and has no words of its own). */
export function networkProblemMessage(problem: WordedNetworkProblem): string {
  switch (problem.kind) {
    case 'refused':
      return `cannot connect to ${problem.host}: connection refused`;
    case 'proxy':
      return proxyProblemMessage(problem);
    case 'tls': {
      const failed = `TLS with ${problem.host} failed`;
      switch (problem.reason) {
        case 'unknown-authority':
          return `${failed}: its certificate is signed by an authority this machine does not trust (${problem.code})`;
        case 'expired':
          return `${failed}: its certificate has expired (CERT_HAS_EXPIRED)`;
        case 'not-yet-valid':
          return `${failed}: its certificate is not valid yet (CERT_NOT_YET_VALID)`;
        case 'name-mismatch':
          return `${failed}: its certificate is for ${problem.names || 'other names'}, not ${problem.hostname}`;
        case 'not-tls':
          return `${failed}: it answered in plain http, not TLS (is this an http port?)`;
        case 'other':
          return `${failed}: ${problem.detail} (${problem.code})`;
      }
    }
  }
}

function proxyProblemMessage(problem: Extract<NetworkProblem, { kind: 'proxy' }>): string {
  const proxy = `the proxy ${problem.proxy}${problem.variable ? ` (from ${problem.variable})` : ''}`;
  const { failure } = problem;
  switch (failure.what) {
    case 'no-answer':
      return `${proxy} did not answer within ${Number((failure.withinMs / 1000).toFixed(3))}s`;
    case 'refused-tunnel':
      return `${proxy} refused the connection to ${problem.host} (HTTP ${failure.status})`;
    case 'unreachable':
      return `${proxy} cannot be reached (${failure.cause})`;
    case 'hung-up':
      return `${proxy} closed the connection on ${failure.on === 'connect' ? 'CONNECT' : 'the forwarded request'}`;
  }
}

function networkHint(problem: NetworkProblem): string {
  switch (problem.kind) {
    case 'refused':
      return `Is the instance running, and is the base URL right? (\`lk doctor\` checks the whole path.)`;
    case 'proxy':
      return `Check ${problem.variable ?? 'HTTPS_PROXY'}, or reach ${problem.host.replace(/:\d+$/, '')} directly with NO_PROXY=${problem.host.replace(/:\d+$/, '')}.`;
    case 'tls-port':
      return `If ${problem.host} serves https, use --base-url https://${problem.host}.`;
    case 'tls':
      switch (problem.reason) {
        case 'unknown-authority':
          return 'If the instance has its own certificate authority, trust it with --cacert FILE (or LK_CA_FILE, `lk config set ca-file FILE`, NODE_EXTRA_CA_CERTS).';
        case 'expired':
          return "The instance's administrator must renew its certificate (or this machine's clock is wrong: `lk doctor`).";
        case 'not-yet-valid':
          return "Check this machine's clock (`lk doctor`), or wait until the certificate is valid.";
        case 'name-mismatch':
          return 'Use the host name the certificate was issued for in --base-url.';
        case 'not-tls':
          return 'The port serves plain http: check the port, or use --base-url http://… for a loopback instance.';
        default:
          return 'Run `lk doctor` for details.';
      }
  }
}

/** The warnings said as the API client is made (src/context/client.ts). */
export function connectionWarning(notice: ConnectionNotice): string {
  switch (notice.kind) {
    case 'key-over-plain-http':
      return `lk: warning: sending the key over plain http to ${notice.host} (saved with --allow-http)`;
    case 'key-in-clear-through-proxy':
      return `lk: warning: the key goes in clear through the proxy ${notice.proxy} to plain-http ${notice.host}; use https, or NO_PROXY=${notice.hostname}`;
  }
}

/** The cache folder is left unused when others could plant files in it (util/private-folder.ts). */
export function untrustedCacheWarning(problem: string, dir: string): string {
  return `lk: warning: not using the cache: ${problem}. If the folder is yours, run: chmod 700 ${dir}`;
}
