import type { Agent as AgentClass, Dispatcher } from 'undici';
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

/** undici's `request(url, options)` on a given dispatcher. */
export function request(dispatcher: Dispatcher, url: URL, options: Omit<Dispatcher.RequestOptions, 'origin' | 'path'>): Promise<Dispatcher.ResponseData> {
  return requestApi.call(dispatcher, { ...options, origin: url.origin, path: `${url.pathname}${url.search}` });
}

export type { Dispatcher };
