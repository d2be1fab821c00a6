import type { Agent as AgentClass, Dispatcher, EnvHttpProxyAgent as EnvHttpProxyAgentClass } from 'undici';
import AgentFile from 'undici/lib/dispatcher/agent.js';
import requestFile from 'undici/lib/api/api-request.js';

/**
 * undici's HTTP client without undici's index: the index also loads fetch, WebSocket, cookies, the cache interceptor
 * and the mocks (and, through globalThis.Headers, Node's own bundled undici), about half of what `lk whoami` spent
 * starting up. lk needs the Agent and the request API, so it imports those two files. They are internal paths: the
 * version is pinned exactly in package.json, and test/unit/undici-files.test.ts fails if they move or change shape.
 */
export const Agent = AgentFile as unknown as typeof AgentClass;

const requestApi = requestFile as unknown as (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

/**
 * undici's EnvHttpProxyAgent, loaded on first use: only when HTTPS_PROXY / HTTP_PROXY is set (it brings ProxyAgent).
 * ProxyAgent opens its tunnel with `dispatcher.connect()`, a method undici's index puts on Dispatcher.prototype:
 * without the index, lk puts that one there itself.
 */
export async function loadEnvHttpProxyAgent(): Promise<typeof EnvHttpProxyAgentClass> {
  const [{ default: envFile }, { default: dispatcherFile }, { default: connectFile }] = await Promise.all([
    import('undici/lib/dispatcher/env-http-proxy-agent.js'),
    import('undici/lib/dispatcher/dispatcher.js'),
    import('undici/lib/api/api-connect.js'),
  ]);
  const { prototype } = dispatcherFile as { prototype: { connect?: unknown } };
  if (typeof prototype.connect !== 'function') prototype.connect = connectFile;
  return envFile as typeof EnvHttpProxyAgentClass;
}

/** undici's `request(url, options)` on a given dispatcher. */
export function request(
  dispatcher: Dispatcher,
  url: URL,
  options: Omit<Dispatcher.RequestOptions, 'origin' | 'path'>,
): Promise<Dispatcher.ResponseData> {
  return requestApi.call(dispatcher, { ...options, origin: url.origin, path: `${url.pathname}${url.search}` });
}

export type { Dispatcher };
