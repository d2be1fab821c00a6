import {
  LkError,
  type NetworkProblem,
  type NetworkWording,
  type WordedNetworkProblem,
  type ProxyFailure,
  TransportError,
} from '../../util/errors.js';
import { ProxyHangup } from '../transport.js';

/**
 * A failed exchange as lk's TransportError, whichever transport carried it: Node's errors (node:http, node:https,
 * node:tls) and undici's (UND_ERR_*, which wrap Node's) mean the same things and read the same.
 */
const RETRYABLE_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
]);

/** How a request travelled: through which proxy (masked), named by which variable. */
export interface Route {
  proxy?: string;
  variable?: string | undefined;
}

const UNKNOWN_AUTHORITY = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
]);
const NOT_TLS = new Set(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'ERR_SSL_HTTP_REQUEST', 'ERR_SSL_RECORD_LAYER_FAILURE']);

/** A TLS failure: its kind, the host and what names the cause (worded by the command line). */
function tlsErrorFrom(code: string | undefined, message: string, url: URL, altNames: unknown, words: NetworkWording): TransportError | undefined {
  const tls = (reason: Extract<NetworkProblem, { kind: 'tls' }>['reason'], details: { names?: string | undefined; detail?: string } = {}) => {
    const problem: WordedNetworkProblem = { kind: 'tls', reason, host: url.host, hostname: url.hostname, code, ...details };
    return new TransportError(words(problem), false, undefined, undefined, problem);
  };
  if (code && UNKNOWN_AUTHORITY.has(code)) return tls('unknown-authority');
  if (code === 'CERT_HAS_EXPIRED') return tls('expired');
  if (code === 'CERT_NOT_YET_VALID') return tls('not-yet-valid');
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const names = typeof altNames === 'string' && altNames ? altNames : /cert's (?:altnames|list): (.+)$/.exec(message.trim())?.[1];
    return tls('name-mismatch', { names: names?.trim() });
  }
  if ((code && NOT_TLS.has(code)) || /wrong version number|packet length too long|http request/i.test(message)) return tls('not-tls');
  if (code?.startsWith('ERR_SSL_') || code?.startsWith('ERR_TLS_') || code?.startsWith('CERT_')) return tls('other', { detail: message });
  return undefined;
}

export function proxyError(route: Route, url: URL, failure: ProxyFailure, retryable: boolean, words: NetworkWording): TransportError {
  const problem: WordedNetworkProblem = { kind: 'proxy', proxy: route.proxy!, variable: route.variable, host: url.host, failure };
  return new TransportError(words(problem), retryable, undefined, undefined, problem);
}

/** `phase` body: the headers had arrived, so a closed socket means the body was cut short. */
export function transportErrorFrom(
  error: unknown,
  url: URL,
  words: NetworkWording,
  phase: 'request' | 'body' = 'request',
  route: Route = {},
): LkError {
  if (error instanceof LkError) return error;
  const err = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = err?.code ?? err?.cause?.code;
  const message = String(err?.message ?? '');
  // undici: "Proxy response (403) !== 200 when HTTP Tunneling", an AbortError that no one asked for.
  const tunnel = /Proxy response \((\d+)\)/.exec(message);
  if (route.proxy && (tunnel || code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')) {
    const failure: ProxyFailure = tunnel
      ? { what: 'refused-tunnel', status: tunnel[1]! }
      : { what: 'unreachable', cause: describeNetworkCode(code) ?? String(code) };
    return proxyError(route, url, failure, false, words);
  }
  // The proxy hung up: on CONNECT (transport.ts ProxyHangup), or on the request it was to forward or tunnel.
  if (route.proxy && error instanceof ProxyHangup) {
    return proxyError(route, url, { what: 'hung-up', on: error.onConnect ? 'connect' : 'forwarded' }, true, words);
  }
  if (route.proxy && phase === 'request' && (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET')) {
    return proxyError(route, url, { what: 'hung-up', on: 'forwarded' }, true, words);
  }
  if (err?.name === 'AbortError' || code === 'UND_ERR_ABORTED') return new TransportError('interrupted', false);
  if (phase === 'request') {
    const withCert = err as { cert?: { subjectaltname?: unknown }; cause?: { cert?: { subjectaltname?: unknown } } };
    const altNames = withCert?.cert?.subjectaltname ?? withCert?.cause?.cert?.subjectaltname;
    const tlsError = tlsErrorFrom(code ?? err?.cause?.code, `${message} ${String(err?.cause?.message ?? '')}`, url, altNames, words);
    if (tlsError) return tlsError;
    if (code === 'ECONNREFUSED') {
      // Nothing listens there: a retry a second later would meet the same closed port, so none is made.
      const problem: WordedNetworkProblem = { kind: 'refused', host: url.host };
      return new TransportError(words(problem), false, undefined, undefined, problem);
    }
  }
  const cut = phase === 'body' && (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'UND_ERR_CLOSED');
  const reason = cut
    ? 'the response was cut short'
    : (describeNetworkCode(code) ?? err?.message ?? (phase === 'body' ? 'the response was cut short' : 'the request failed'));
  // Plain http to a TLS port: the server hangs up on the first bytes it cannot read as a TLS hello.
  const tlsPort = phase === 'request' && url.protocol === 'http:' && (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET');
  return new TransportError(
    `GET ${url.pathname} failed: ${reason}`,
    code !== undefined && RETRYABLE_CODES.has(code),
    undefined,
    undefined,
    tlsPort ? { kind: 'tls-port', host: url.host } : undefined,
  );
}

function describeNetworkCode(code: string | undefined): string | undefined {
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return 'the connection was reset';
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'ETIMEDOUT':
      return 'timed out';
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
      return 'the response was cut short';
    case 'ENOTFOUND':
      return 'host not found';
    default:
      return undefined;
  }
}
