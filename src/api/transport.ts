/**
 * Which proxy a request goes through, as curl reads HTTPS_PROXY, HTTP_PROXY and NO_PROXY (undici-transport.ts
 * carries proxied requests), and how a proxy that hangs up is told apart.
 */

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
