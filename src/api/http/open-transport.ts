import type { Transport, TransportName, TransportOptions } from './transport.js';

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
