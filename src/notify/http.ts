import { Agent, EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import { retryAfterSeconds } from '../api/rate-limit.js';
import { proxySettingsFromEnv } from '../api/transport.js';
import { VERSION } from '../util/version.js';

/**
 * One POST to a notification service over undici, through the proxy the environment names (HTTPS_PROXY, HTTP_PROXY,
 * NO_PROXY, as every request of lk: api/transport.ts). The answer is what the senders need: taken or not, and how long
 * a 429 asks to wait.
 */
export interface Posted {
  status: number;
  /** A 429's or 503's Retry-After, in milliseconds from now. */
  retryAfterMs: number | undefined;
  /** The start of the body, for the reason of a refusal. */
  text: string;
}

export interface PostOptions {
  env: NodeJS.ProcessEnv;
  /** The certificates to trust in place of Node's defaults (the run's CA file added: api/ca.ts); none: the defaults. */
  ca?: string[] | undefined;
  signal?: AbortSignal | undefined;
  timeoutMs: number;
  now: () => number;
}

/** The agents of a run, one per environment: connections kept between the messages to one service. */
const agents = new WeakMap<NodeJS.ProcessEnv, Dispatcher>();

function agentFor(options: PostOptions): Dispatcher {
  let agent = agents.get(options.env);
  if (agent) return agent;
  const { httpProxy, httpsProxy, noProxy } = proxySettingsFromEnv(options.env);
  const connect = { timeout: options.timeoutMs, ...(options.ca ? { ca: options.ca } : {}) };
  const timeouts = { headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs, connect };
  agent =
    httpProxy || httpsProxy
      ? new EnvHttpProxyAgent({ ...timeouts, requestTls: connect, httpProxy: httpProxy ?? '', httpsProxy: httpsProxy ?? '', noProxy: noProxy ?? '' })
      : new Agent(timeouts);
  agents.set(options.env, agent);
  return agent;
}

/** Closes the run's connections (a run that ends keeps no socket open). */
export async function closeAgents(env: NodeJS.ProcessEnv): Promise<void> {
  const agent = agents.get(env);
  agents.delete(env);
  await agent?.close();
}

export async function post(url: URL, headers: Record<string, string>, body: string, options: PostOptions): Promise<Posted> {
  const answer = await request(url, {
    dispatcher: agentFor(options),
    method: 'POST',
    headers: { 'user-agent': `lk/${VERSION}`, ...headers },
    body,
    signal: options.signal,
  });
  const raw = await answer.body.text();
  return {
    status: answer.statusCode,
    retryAfterMs: retryAfterMs(answer.headers['retry-after'], options.now()),
    text: raw.slice(0, 200).replace(/\s+/g, ' ').trim(),
  };
}

/** A 429's or 503's Retry-After in milliseconds from now, read as lk reads the API's (api/rate-limit.ts). */
export function retryAfterMs(header: string | string[] | undefined, now: number): number | undefined {
  const seconds = retryAfterSeconds(header, now);
  return seconds === undefined ? undefined : Math.ceil(seconds * 1000);
}
