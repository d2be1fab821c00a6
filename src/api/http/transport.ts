import type { ProxyConnects, ProxySettings } from '../transport.js';

export type Headers = Record<string, string | string[] | undefined>;

/** A response whose headers have arrived; its body is read (or discarded) by the caller. */
export interface RawResponse {
  status: number;
  headers: Headers;
  body: AsyncIterable<Buffer>;
  /** Stops reading the body and frees the connection. */
  discard(): void;
}

/**
 * What carries one GET: Node's own node:http/node:https (loads almost nothing: a one-request command's route) or
 * undici (its pool and its proxy agents). Both report failures as Node and undici do; network-errors.ts reads either.
 */
export interface Transport {
  readonly name: TransportName;
  get(url: URL, headers: Record<string, string>, signal: AbortSignal): Promise<RawResponse>;
  /** `abandoned`: a request given up on may still be queued, so connections are destroyed rather than let finish. */
  close(abandoned: boolean): Promise<void>;
}

export type TransportName = 'node' | 'undici';

export interface TransportOptions {
  timeoutMs: number;
  /** Certificates replacing Node's defaults (ca.ts trustedCertificates: the defaults plus a CA file); none: the defaults. */
  ca?: string[] | undefined;
  proxies: ProxySettings;
  /** Told how many connections to a proxy (a CONNECT, or the TCP connection a forwarded request needs) are under way. */
  proxyConnects?: ProxyConnects;
  /** Connections kept per origin (the pages in flight of --all). */
  connections: number;
}

/**
 * The route of a run's requests. Through a proxy: undici (its EnvHttpProxyAgent tunnels and forwards as curl does).
 * Otherwise node:http/node:https, which start in a fraction of undici's time (bench/RESULTS.md) and pool connections
 * with a keep-alive agent as well. LK_TRANSPORT=undici sends direct requests over undici too (tests, benchmarks).
 */
export function transportFor(proxied: boolean, env: NodeJS.ProcessEnv): TransportName {
  return proxied || env.LK_TRANSPORT === 'undici' ? 'undici' : 'node';
}

/** The transport of that name, loaded on first use: a run that makes no request loads neither. */
export async function openTransport(name: TransportName, options: TransportOptions): Promise<Transport> {
  if (name === 'undici') {
    const { UndiciTransport } = await import('./undici-transport.js');
    return new UndiciTransport(options);
  }
  const { NodeTransport } = await import('./node-transport.js');
  return new NodeTransport(options);
}
