import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { Agent, loadEnvHttpProxyAgent, request } from '../../src/api/undici.js';

const require = createRequire(import.meta.url);

/** src/api/undici.ts loads two of undici's internal files: they must be where, and what, it expects. */
describe('the undici files lk loads directly', () => {
  it('are those of the exact undici version package.json pins', () => {
    const pinned = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> })
      .dependencies.undici;
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect((require('undici/package.json') as { version: string }).version).toBe(pinned);
  });

  it('give the Agent class and a request function that answers over a dispatcher', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => res.end(JSON.stringify({ path: req.url, auth: req.headers.authorization })));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const agent = new Agent({ connections: 1 });
    try {
      const response = await request(agent, new URL(`http://127.0.0.1:${port}/v1/me?x=1`), { method: 'GET', headers: { authorization: 'Bearer t' } });
      expect(response.statusCode).toBe(200);
      expect(await response.body.json()).toEqual({ path: '/v1/me?x=1', auth: 'Bearer t' });
    } finally {
      await agent.close();
      server.close();
    }
  });

  it('are the same classes undici exports, not copies', async () => {
    expect(Agent).toBe((require('undici') as { Agent: unknown }).Agent);
    expect(await loadEnvHttpProxyAgent()).toBe((require('undici') as { EnvHttpProxyAgent: unknown }).EnvHttpProxyAgent);
  });
});

describe('the proxy agent lk loads when a proxy is set', () => {
  it('can open a tunnel without undici’s index: Dispatcher.prototype.connect is in place', async () => {
    const EnvHttpProxyAgent = await loadEnvHttpProxyAgent();
    const agent = new EnvHttpProxyAgent({ httpProxy: 'http://127.0.0.1:9', httpsProxy: '', noProxy: '' });
    try {
      expect(typeof (agent as unknown as { connect: unknown }).connect).toBe('function');
      expect(require('undici/lib/api/api-connect.js')).toBe(
        (require('undici/lib/dispatcher/dispatcher.js') as { prototype: { connect: unknown } }).prototype.connect,
      );
    } finally {
      await agent.close();
    }
  });
});
