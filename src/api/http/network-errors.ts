import { LkError, type NetworkProblem, TransportError } from '../../util/errors.js';
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

/** A TLS failure as one plain line naming the host and the cause (the advice is output/messages.ts's). */
function tlsErrorFrom(code: string | undefined, message: string, url: URL, altNames: unknown): TransportError | undefined {
  const host = url.host;
  const tls = (reason: Extract<NetworkProblem, { kind: 'tls' }>['reason'], text: string) =>
    new TransportError(`TLS with ${host} failed: ${text}`, false, undefined, undefined, { kind: 'tls', reason, host });
  if (code && UNKNOWN_AUTHORITY.has(code))
    return tls('unknown-authority', `its certificate is signed by an authority this machine does not trust (${code})`);
  if (code === 'CERT_HAS_EXPIRED') return tls('expired', 'its certificate has expired (CERT_HAS_EXPIRED)');
  if (code === 'CERT_NOT_YET_VALID') return tls('not-yet-valid', 'its certificate is not valid yet (CERT_NOT_YET_VALID)');
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const names = typeof altNames === 'string' && altNames ? altNames : /cert's (?:altnames|list): (.+)$/.exec(message.trim())?.[1];
    return tls('name-mismatch', `its certificate is for ${names ? names.trim() : 'other names'}, not ${url.hostname}`);
  }
  if ((code && NOT_TLS.has(code)) || /wrong version number|packet length too long|http request/i.test(message)) {
    return tls('not-tls', 'it answered in plain http, not TLS (is this an http port?)');
  }
  if (code?.startsWith('ERR_SSL_') || code?.startsWith('ERR_TLS_') || code?.startsWith('CERT_')) return tls('other', `${message} (${code})`);
  return undefined;
}

export function proxyError(route: Route, url: URL, why: string, retryable: boolean): TransportError {
  const from = route.variable ? ` (from ${route.variable})` : '';
  return new TransportError(`the proxy ${route.proxy}${from} ${why}`, retryable, undefined, undefined, {
    kind: 'proxy',
    proxy: route.proxy!,
    variable: route.variable,
    host: url.host,
  });
}

/** `phase` body: the headers had arrived, so a closed socket means the body was cut short. */
export function transportErrorFrom(error: unknown, url: URL, phase: 'request' | 'body' = 'request', route: Route = {}): LkError {
  if (error instanceof LkError) return error;
  const err = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = err?.code ?? err?.cause?.code;
  const message = String(err?.message ?? '');
  // undici: "Proxy response (403) !== 200 when HTTP Tunneling", an AbortError that no one asked for.
  const tunnel = /Proxy response \((\d+)\)/.exec(message);
  if (route.proxy && (tunnel || code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')) {
    const why = tunnel ? `refused the connection to ${url.host} (HTTP ${tunnel[1]})` : `cannot be reached (${describeNetworkCode(code) ?? code})`;
    return proxyError(route, url, why, false);
  }
  // The proxy hung up: on CONNECT (transport.ts ProxyHangup), or on the request it was to forward or tunnel.
  if (route.proxy && error instanceof ProxyHangup) {
    return proxyError(route, url, error.onConnect ? 'closed the connection on CONNECT' : 'closed the connection on the forwarded request', true);
  }
  if (route.proxy && phase === 'request' && (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET')) {
    return proxyError(route, url, 'closed the connection on the forwarded request', true);
  }
  if (err?.name === 'AbortError' || code === 'UND_ERR_ABORTED') return new TransportError('interrupted', false);
  if (phase === 'request') {
    const withCert = err as { cert?: { subjectaltname?: unknown }; cause?: { cert?: { subjectaltname?: unknown } } };
    const altNames = withCert?.cert?.subjectaltname ?? withCert?.cause?.cert?.subjectaltname;
    const tlsError = tlsErrorFrom(code ?? err?.cause?.code, `${message} ${String(err?.cause?.message ?? '')}`, url, altNames);
    if (tlsError) return tlsError;
    if (code === 'ECONNREFUSED') {
      // Nothing listens there: a retry a second later would meet the same closed port, so none is made.
      return new TransportError(`cannot connect to ${url.host}: connection refused`, false, undefined, undefined, {
        kind: 'refused',
        host: url.host,
      });
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
