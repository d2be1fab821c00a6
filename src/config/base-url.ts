import { UsageError } from '../util/errors.js';
import { isLoopbackHost } from '../util/loopback.js';

export { isLoopbackHost };

/**
 * Checks and normalises a base URL (the address in front of /v1): absolute http(s), no credentials, query or
 * fragment; a path prefix (a reverse proxy's) is kept, without its trailing slash.
 */
export function normaliseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`base URL "${raw}" is not an absolute URL`, 'Use the form https://host[:port][/prefix].');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`base URL must use https (or http on loopback), not ${url.protocol.replace(':', '')}`);
  }
  if (url.username || url.password) throw new UsageError('base URL must not carry credentials');
  if (url.search || raw.includes('?')) throw new UsageError('base URL must not carry a query string');
  if (url.hash || raw.includes('#')) throw new UsageError('base URL must not carry a fragment');
  const path = url.pathname.replace(/\/+$/, '');
  if (/\/v1$/.test(path)) {
    throw new UsageError(`base URL is the address in front of /v1: use ${url.origin}${path.slice(0, -3)}`);
  }
  return `${url.origin}${path}`;
}

/** https everywhere, except loopback and instances saved with --allow-http. */
export function assertTransportAllowed(baseUrl: string, allowHttp: boolean): void {
  const url = new URL(baseUrl);
  if (url.protocol === 'https:' || isLoopbackHost(url.hostname) || allowHttp) return;
  throw new UsageError(
    `refusing to send the key over plain http to ${url.host}`,
    'Use https, or save a self-hosted instance on your home network with `lk auth login --base-url URL --allow-http`.',
  );
}

export function usesInsecureHttp(baseUrl: string): boolean {
  const url = new URL(baseUrl);
  return url.protocol === 'http:' && !isLoopbackHost(url.hostname);
}
