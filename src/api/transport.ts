/**
 * How requests reach the instance: directly, or through the proxy HTTPS_PROXY / HTTP_PROXY name (undici's own
 * EnvHttpProxyAgent), trusting the system's certificate authorities plus, when asked, one more CA file.
 */
import { Agent, Client, EnvHttpProxyAgent, Pool, type Dispatcher } from 'undici';
import { LkError } from '../util/errors.js';

/** The proxy variables as curl reads them: either case, the lowercase one winning. */
export interface ProxySettings {
  httpProxy: string | undefined;
  httpsProxy: string | undefined;
  noProxy: string | undefined;
}

export function proxySettingsFromEnv(env: NodeJS.ProcessEnv): ProxySettings {
  const pick = (name: string) => {
    const value = env[name.toLowerCase()] ?? env[name.toUpperCase()];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
  // curl takes `proxy.corp:3128` for http://proxy.corp:3128.
  const withScheme = (proxy: string | undefined) => (proxy === undefined || proxy.includes('://') ? proxy : `http://${proxy}`);
  return { httpProxy: withScheme(pick('http_proxy')), httpsProxy: withScheme(pick('https_proxy')), noProxy: pick('no_proxy') };
}

/** The variable a proxy URL came from, for messages (`HTTPS_PROXY`, `http_proxy`…). */
export function proxyVariable(env: NodeJS.ProcessEnv, url: URL): string | undefined {
  const names = url.protocol === 'https:' ? ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'] : ['http_proxy', 'HTTP_PROXY'];
  return names.find((name) => env[name] !== undefined && env[name]!.trim() !== '');
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/**
 * The proxy a request to `url` goes through, or undefined for a direct connection. The same rule as undici's
 * EnvHttpProxyAgent (HTTPS_PROXY for https, else HTTP_PROXY; NO_PROXY `*`, exact hosts, domain suffixes with or without
 * a leading `.` or `*.`, optional `:port`), so that -v and `lk doctor` tell what the agent does.
 */
export function proxyFor(url: URL, settings: ProxySettings): string | undefined {
  const proxy = url.protocol === 'https:' ? (settings.httpsProxy ?? settings.httpProxy) : settings.httpProxy;
  if (!proxy) return undefined;
  const noProxy = settings.noProxy ?? '';
  if (noProxy === '*') return undefined;
  const hostname = url.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number.parseInt(url.port, 10) || DEFAULT_PORTS[url.protocol] || 0;
  for (const entry of noProxy.split(/[,\s]/)) {
    if (!entry) continue;
    const parsed = /^(.+):(\d+)$/.exec(entry);
    const host = (parsed ? parsed[1]! : entry).replace(/^\*?\./, '').toLowerCase();
    const entryPort = parsed ? Number.parseInt(parsed[2]!, 10) : 0;
    if (entryPort && entryPort !== port) continue;
    if (hostname === host || hostname.endsWith(`.${host}`)) return undefined;
  }
  return proxy;
}

/** A proxy URL fit to print: any user name and password in it masked, like the key. */
export function maskProxy(proxy: string): string {
  try {
    const url = new URL(proxy.includes('://') ? proxy : `http://${proxy}`);
    if (!url.username && !url.password) return url.origin;
    return `${url.protocol}//${url.username ? '***' : ''}${url.password ? ':***' : ''}@${url.host}`;
  } catch {
    return proxy.replace(/\/\/[^@/]*@/, '//***@');
  }
}

export interface TransportOptions {
  timeoutMs: number;
  /** Told how many connections to a proxy (a CONNECT, or the TCP connection a forwarded request needs) are under way. */
  proxyConnects?: ProxyConnects;
  /** Certificates replacing Node's defaults (trustedCertificates: the defaults plus a CA file); none: the defaults. */
  ca?: string[] | undefined;
  proxies: ProxySettings;
}

/** Connections to the proxy under way: a deadline that passes while one is tells that the proxy did not answer. */
export class ProxyConnects {
  opening = 0;
}

/**
 * The proxy hung up while lk was connecting through it (on CONNECT). undici reports that as a socket error, which it
 * takes for a stale connection and retries at once, forever (a tight loop); any other code fails the request instead,
 * and lk's own retries (a few, with backoff) take over.
 */
export class ProxyHangup extends Error {
  readonly code = 'LK_PROXY_HANGUP';
  /**
   * Whether it hung up on the CONNECT itself (undici's socket error) rather than on what went through the granted
   * tunnel (the TLS hello: node's ECONNRESET).
   */
  readonly onConnect: boolean;

  constructor(cause: NodeJS.ErrnoException) {
    super(cause.message, { cause });
    this.onConnect = cause.code === 'UND_ERR_SOCKET' || cause.code === 'UND_ERR_CLOSED';
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
export function createDispatcher(options: TransportOptions): Dispatcher {
  const connect = { timeout: options.timeoutMs, ...(options.ca ? { ca: options.ca } : {}) };
  const agentOptions = {
    keepAliveTimeout: 10_000,
    connections: 8,
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
