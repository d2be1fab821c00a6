import type * as Http from 'node:http';
import type * as Https from 'node:https';
import type { Agent as HttpAgent, IncomingMessage, RequestOptions } from 'node:http';
import type { RawResponse, Transport, TransportOptions } from './transport.js';

/**
 * Direct requests over Node's own node:http and node:https (node:https, and with it TLS, loaded only for an https
 * instance): a keep-alive agent per protocol, `connections` sockets each, trusting `ca` when given.
 */
export class NodeTransport implements Transport {
  readonly name = 'node';
  private readonly agents = new Map<string, HttpAgent>();
  /** Each module imported once: an import per request copies its exports each time (esbuild's interop). */
  private http: typeof Http | undefined;
  private https: typeof Https | undefined;

  constructor(private readonly options: TransportOptions) {}

  async get(url: URL, headers: Record<string, string>, signal: AbortSignal): Promise<RawResponse> {
    const module = url.protocol === 'https:' ? (this.https ??= await import('node:https')) : (this.http ??= await import('node:http'));
    let agent = this.agents.get(url.protocol);
    if (!agent) {
      const agentOptions = { keepAlive: true, keepAliveMsecs: 10_000, maxSockets: this.options.connections };
      agent = new module.Agent(url.protocol === 'https:' && this.options.ca ? { ...agentOptions, ca: this.options.ca } : agentOptions);
      this.agents.set(url.protocol, agent);
    }
    const requestOptions: RequestOptions = { method: 'GET', headers, agent, signal };
    return new Promise((resolve, reject) => {
      const request = module.request(url, requestOptions, (response: IncomingMessage) => {
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: response,
          discard: () => response.destroy(),
        });
      });
      request.once('error', reject);
      request.end();
    });
  }

  async close(): Promise<void> {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}
