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
