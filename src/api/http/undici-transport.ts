import { Agent, Client, EnvHttpProxyAgent, Pool, request, type Dispatcher } from 'undici';
import { LkError } from '../../util/errors.js';
import { maskProxy, ProxyConnects, ProxyHangup } from '../transport.js';
import type { RawResponse, Transport, TransportOptions } from './transport.js';

/**
 * Requests over undici: a plain Agent, or undici's EnvHttpProxyAgent when a proxy variable is set (proxied
 * requests always come this way), trusting the system's certificate authorities plus, when asked, one more CA file.
 */
export class UndiciTransport implements Transport {
  readonly name = 'undici';
  private dispatcher: Dispatcher | undefined;

  constructor(private readonly options: TransportOptions) {}

  async get(url: URL, headers: Record<string, string>, signal: AbortSignal): Promise<RawResponse> {
    this.dispatcher ??= createDispatcher(this.options);
    const result = await request(url, { dispatcher: this.dispatcher, method: 'GET', headers, signal });
    return {
      status: result.statusCode,
      headers: result.headers,
      body: result.body as AsyncIterable<Buffer>,
      discard: () => result.body.destroy(),
    };
  }

  async close(abandoned: boolean): Promise<void> {
    if (abandoned) await this.dispatcher?.destroy();
    else await this.dispatcher?.close();
  }
}

const HANGUP_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_CLOSED']);

type Connector = (options: object, callback: (error: Error | null, socket: unknown) => void) => void;

/** undici's default agent factory, with each connection through a proxy watched (see ProxyHangup). */
function watchingFactory(connects: ProxyConnects) {
  return (origin: URL | string, options: Record<string, unknown>): Dispatcher => {
    const connect = options.connect;
    const watched =
      typeof connect === 'function'
        ? {
            ...options,
            connect: ((connectOptions, callback) => {
              connects.opening += 1;
              (connect as Connector)(connectOptions, (error, socket) => {
                connects.opening -= 1;
                const code = (error as NodeJS.ErrnoException | null)?.code;
                if (error && code && HANGUP_CODES.has(code)) callback(new ProxyHangup(error), null);
                else callback(error, socket);
              });
            }) satisfies Connector,
          }
        : options;
    return options.connections === 1 ? new Client(origin, watched) : new Pool(origin, watched);
  };
}

/** The dispatcher of a run: a plain Agent, or undici's EnvHttpProxyAgent when a proxy variable is set. */
function createDispatcher(options: TransportOptions): Dispatcher {
  const connect = { timeout: options.timeoutMs, ...(options.ca ? { ca: options.ca } : {}) };
  const agentOptions = {
    keepAliveTimeout: 10_000,
    connections: options.connections,
    connect,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  };
  const { httpProxy, httpsProxy, noProxy } = options.proxies;
  if (!httpProxy && !httpsProxy) return new Agent(agentOptions);
  for (const proxy of [httpProxy, httpsProxy]) {
    if (proxy !== undefined && !URL.canParse(proxy))
      throw new LkError(`the proxy address ${maskProxy(proxy)} is not a URL`, 2, 'Use the form http://host:port in HTTPS_PROXY / HTTP_PROXY.');
  }
  // Through a proxy, the instance's TLS is set up inside the CONNECT tunnel with requestTls (connect is the proxy's).
  return new EnvHttpProxyAgent({
    ...agentOptions,
    factory: watchingFactory(options.proxyConnects ?? new ProxyConnects()),
    // Plain http is forwarded to the proxy in absolute form (GET http://host/…), as curl does: proxies such as
    // Squid refuse CONNECT to any port but 443. https keeps its CONNECT tunnel.
    proxyTunnel: false,
    requestTls: connect,
    proxyTls: { timeout: options.timeoutMs },
    // Explicit values: the run's environment, not whatever process.env holds (and '' rather than undefined, so that
    // undici does not fall back to process.env).
    httpProxy: httpProxy ?? '',
    httpsProxy: httpsProxy ?? '',
    noProxy: noProxy ?? '',
  } as ConstructorParameters<typeof EnvHttpProxyAgent>[0]);
}
