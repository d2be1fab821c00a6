/**
 * Which names `lk serve` answers to. On loopback it answers only its own: a web page the user visits can point its
 * own name at 127.0.0.1 (DNS rebinding) and then read whatever a loopback server answers to that name, so a request
 * whose Host is anything but 127.0.0.1, localhost or [::1] (a port or not) is refused before anything is read. Off
 * loopback the token guards every request and any Host is served (a proxy, a LAN name, an address).
 */

const LOOPBACK_ADDRESS = /^(127(\.\d{1,3}){3}|::1|localhost)$/i;

/** Whether `host` (as --host gives it) is reachable from this machine only. */
export function isLoopback(host: string): boolean {
  return LOOPBACK_ADDRESS.test(host);
}

/** The Host header forms a loopback server owns: a name or address, then an optional port, nothing else. */
const OWN_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/i;

/** Whether a loopback server may answer a request carrying this Host header (none at all is not its own). */
export function isOwnHost(header: string | undefined): boolean {
  return header !== undefined && OWN_HOST.test(header);
}

/** The names of loopback, as a Host or an Origin spells them. */
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A Host header as RFC 9110 has it: a name, an IPv4 address or a bracketed IPv6 one, then an optional port; no userinfo. */
export const HOST_FORM = /^([A-Za-z0-9._-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(:\d{1,5})?$/;

/**
 * For POST /mcp (lk serve --mcp, always with the token): why a request's Host or Origin is refused, or undefined when
 * neither is. An Origin (a browser's request) must name the address the connection came in on (`local`, never what
 * the request itself claims) or a loopback name, and its port: a web page on another name, pointed here by DNS
 * rebinding, is refused whatever the address. The Host must be a host name with an optional port (never userinfo);
 * on loopback (`ownNamesOnly`) it must also be one of those names, as on every other route; off loopback any name is
 * served (a LAN name, a Tailscale name, a reverse proxy's), the token guarding it as it guards the documents.
 */
export function foreignToMcp(
  headers: { host?: string | undefined; origin?: string | undefined },
  local: { address: string; port: number },
  ownNamesOnly = true,
): string | undefined {
  const own = new Set([...LOOPBACK_NAMES, hostName(local.address)]);
  if (headers.host !== undefined) {
    const host = HOST_FORM.test(headers.host) ? parsed(`http://${headers.host}`) : undefined;
    if (!host) return `Host ${headers.host} is not a host name`;
    if (ownNamesOnly && (!own.has(host.hostname) || (host.port !== '' && Number(host.port) !== local.port)))
      return `Host ${headers.host} is not this server`;
  }
  if (headers.origin !== undefined) {
    const origin = parsed(headers.origin);
    const port = origin && (origin.port === '' ? (origin.protocol === 'https:' ? 443 : 80) : Number(origin.port));
    if (!origin || !['http:', 'https:'].includes(origin.protocol) || !own.has(origin.hostname) || port !== local.port)
      return `Origin ${headers.origin} is not this server`;
  }
  return undefined;
}

/** An address as a URL's hostname spells it: IPv6 in brackets, an IPv4 address mapped into IPv6 as itself. */
function hostName(address: string): string {
  const plain = address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');
  return plain.includes(':') ? `[${plain.toLowerCase()}]` : plain;
}

function parsed(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}
