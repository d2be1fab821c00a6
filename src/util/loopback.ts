const LOOPBACK_HOSTS = new Set(['localhost', '[::1]', '::1']);

/** A host name that names this machine (localhost, 127.0.0.0/8, ::1): what a URL's host says, not what it resolves to. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (LOOPBACK_HOSTS.has(host) || host.endsWith('.localhost')) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
