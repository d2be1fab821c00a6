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
  /** POST unless named (json://'s method=). */
  method?: string | undefined;
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

/** The most of an answer lk reads: enough for a service's reason; a larger body is left unread (the connection closed). */
export const ANSWER_CAP_BYTES = 4096;

/**
 * One POST within one deadline (--timeout): connecting, the headers and the body of the answer all count against it,
 * so a target that trickles its answer a byte at a time fails at the deadline like one that never answers.
 */
export async function post(url: URL, headers: Record<string, string>, body: string, options: PostOptions): Promise<Posted> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  try {
    const answer = await request(url, {
      dispatcher: agentFor(options),
      method: (options.method ?? 'POST') as Dispatcher.HttpMethod,
      headers: { 'user-agent': `lk/${VERSION}`, ...headers },
      body: options.method === 'GET' || options.method === 'HEAD' ? null : body,
      signal,
    });
    const raw = await readCapped(answer.body, ANSWER_CAP_BYTES);
    return {
      status: answer.statusCode,
      retryAfterMs: retryAfterMs(answer.headers['retry-after'], options.now()),
      text: raw.slice(0, 200).replace(/\s+/g, ' ').trim(),
    };
  } catch (error) {
    options.signal?.throwIfAborted();
    if (deadline.aborted) throw new Error(`no whole answer within the timeout (${options.timeoutMs / 1000}s, --timeout)`, { cause: error });
    throw error;
  }
}

/** The start of an answer's body, at most `cap` bytes; the rest is never read (the body is destroyed). */
async function readCapped(body: Dispatcher.ResponseData['body'], cap: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= cap) break;
  }
  body.destroy();
  return Buffer.concat(chunks).subarray(0, cap).toString('utf8');
}

/** A 429's or 503's Retry-After in milliseconds from now, read as lk reads the API's (api/rate-limit.ts). */
export function retryAfterMs(header: string | string[] | undefined, now: number): number | undefined {
  const seconds = retryAfterSeconds(header, now);
  return seconds === undefined ? undefined : Math.ceil(seconds * 1000);
}
