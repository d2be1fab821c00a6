/**
 * How requests reach the instance: directly, or through the proxy HTTPS_PROXY / HTTP_PROXY name (undici's own
 * EnvHttpProxyAgent), trusting the system's certificate authorities plus, when asked, one more CA file.
 */
import { Agent, EnvHttpProxyAgent, type Dispatcher } from 'undici';
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
  /** Certificates replacing Node's defaults (trustedCertificates: the defaults plus a CA file); none: the defaults. */
  ca?: string[] | undefined;
  proxies: ProxySettings;
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
    requestTls: connect,
    proxyTls: { timeout: options.timeoutMs },
    // Explicit values: the run's environment, not whatever process.env holds (and '' rather than undefined, so that
    // undici does not fall back to process.env).
    httpProxy: httpProxy ?? '',
    httpsProxy: httpsProxy ?? '',
    noProxy: noProxy ?? '',
  } as ConstructorParameters<typeof EnvHttpProxyAgent>[0]);
}
