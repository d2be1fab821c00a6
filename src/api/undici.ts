import { createRequire } from 'node:module';
import type { Agent as AgentClass, Dispatcher } from 'undici';

/**
 * undici's HTTP client without undici's index: the index also loads fetch, WebSocket, cookies, the cache interceptor
 * and the mocks (and, through globalThis.Headers, Node's own bundled undici), about half of what `lk whoami` spent
 * starting up. lk needs the Agent and the request API, so it loads those two files. They are internal paths: the
 * version is pinned exactly in package.json, and test/unit/undici-files.test.ts fails if they move or change shape.
 */
const require = createRequire(import.meta.url);

export const Agent = require('undici/lib/dispatcher/agent.js') as typeof AgentClass;

const requestApi = require('undici/lib/api/api-request.js') as (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

/** undici's `request(url, options)` on a given dispatcher. */
export function request(dispatcher: Dispatcher, url: URL, options: Omit<Dispatcher.RequestOptions, 'origin' | 'path'>): Promise<Dispatcher.ResponseData> {
  return requestApi.call(dispatcher, { ...options, origin: url.origin, path: `${url.pathname}${url.search}` });
}

export type { Dispatcher };
