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
