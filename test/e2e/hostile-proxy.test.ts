import { createServer, type Socket } from 'node:net';
import { once } from 'node:events';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { startTestBed, type TestBed } from './harness.js';
import { makeTestPki, type TestPki } from './pki.js';
import { describeWith } from '../support/outside-tools.js';
import { until } from '../support/until.js';

/** How the proxy misbehaves: hangs up on CONNECT, hangs up on the request it should forward, or never answers. */
type Behaviour = 'hangs-up-on-connect' | 'hangs-up-on-forwarded-request' | 'answers-nothing';

interface HostileProxy {
  url: string;
  /** Connections accepted so far. */
  connections: number;
  /** The first line of every request it read (`CONNECT host:port HTTP/1.1`, `GET http://… HTTP/1.1`). */
  requestLines: string[];
  stop(): Promise<void>;
}

async function startHostileProxy(behaviour: Behaviour): Promise<HostileProxy> {
  const sockets = new Set<Socket>();
  const proxy: Omit<HostileProxy, 'url'> & { url: string } = { url: '', connections: 0, requestLines: [], stop: async () => {} };
  const server = createServer((socket) => {
    proxy.connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let tunnelled = false;
    socket.on('data', (chunk: Buffer) => {
      if (tunnelled) return void socket.destroy();
      const line = chunk.toString('latin1').split('\r\n')[0]!;
      proxy.requestLines.push(line);
      if (behaviour === 'answers-nothing') return;
      if (behaviour === 'hangs-up-on-forwarded-request' && line.startsWith('CONNECT ')) {
        // Tunnel granted; the request then sent inside it is hung up on.
        tunnelled = true;
        socket.write('HTTP/1.1 200 Connection established\r\n\r\n');
        return;
      }
      socket.destroy();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  proxy.url = `http://127.0.0.1:${port}`;
  proxy.stop = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  };
  return proxy;
}

describeWith(['openssl'], 'a proxy that misbehaves (a hostile proxy on loopback)', () => {
  let bed: TestBed;
  let plain: TestBed;
  let trust: string[];
  let proxy: HostileProxy | undefined;
  beforeAll(async () => {
    const pki: TestPki = makeTestPki();
    bed = await startTestBed({ tls: pki.valid });
    plain = await startTestBed();
    trust = ['--cacert', pki.caFile];
  });
  afterEach(async () => {
    await proxy?.stop();
    proxy = undefined;
  });
  afterAll(async () => {
    await bed.sandbox.close();
    await plain.sandbox.close();
  });

  it('hangs up on CONNECT: a few tries with backoff, then exit 1 naming the proxy and what it did', async () => {
    proxy = await startHostileProxy('hangs-up-on-connect');
    const result = await bed.lk(['whoami', '--timeout', '30', ...trust], { env: { HTTPS_PROXY: proxy.url } });
    expect(result.code).toBe(1);
    const errors = result.stderr.split('\n').filter((line) => /^lk: (?!waiting|warning)/.test(line));
    expect(errors[0]).toMatch(
      new RegExp(`^lk: the proxy ${proxy.url} \\(from HTTPS_PROXY\\) closed the connection on CONNECT \\(tried \\d times\\)$`),
    );
    expect(errors).toHaveLength(1);
    // One connection a try, a few tries: no reconnecting in a loop.
    expect(errors[0]).toContain(`(tried ${proxy.connections} times)`);
    expect(proxy.connections).toBeGreaterThan(1);
    expect(proxy.connections).toBeLessThanOrEqual(4);
    expect(bed.sandbox.counters.requests).toBe(0);
  });

  it('hangs up on the forwarded request (after granting the tunnel): retried, then one line, exit 1', async () => {
    proxy = await startHostileProxy('hangs-up-on-forwarded-request');
    const result = await bed.lk(['whoami', '--timeout', '30', ...trust], { env: { HTTPS_PROXY: proxy.url } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(`^lk: the proxy ${proxy.url} \\(from HTTPS_PROXY\\) closed the connection on the forwarded request \\(tried \\d times\\)$`, 'm'),
    );
    expect(result.stderr).toContain(`(tried ${proxy.connections} times)`);
    expect(proxy.connections).toBeGreaterThan(1);
    expect(proxy.connections).toBeLessThanOrEqual(4);
  });

  it('hangs up on a request forwarded in absolute form (plain http)', async () => {
    proxy = await startHostileProxy('hangs-up-on-forwarded-request');
    const result = await plain.lk(['whoami', '--timeout', '30'], { env: { HTTP_PROXY: proxy.url } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(`^lk: the proxy ${proxy.url} \\(from HTTP_PROXY\\) closed the connection on the forwarded request \\(tried \\d times\\)$`, 'm'),
    );
    expect(proxy.connections).toBeLessThanOrEqual(4);
  });

  it('accepts and never answers: --timeout ends it, exit 1, one line, no second try', async () => {
    proxy = await startHostileProxy('answers-nothing');
    // A second of patience: on a loaded machine the proxy (in this process) may take the connection after a shorter
    // --timeout has already fired, and lk would not have sent its CONNECT yet.
    const result = await bed.lk(['whoami', '--timeout', '1', ...trust], { env: { HTTPS_PROXY: proxy.url } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^lk: the proxy ${proxy.url} \\(from HTTPS_PROXY\\) did not answer within 1s$`, 'm'));
    await until(() => proxy!.connections > 0);
    expect(proxy.connections).toBe(1);
    expect(proxy.requestLines).toEqual([`CONNECT ${new URL(bed.sandbox.url).host} HTTP/1.1`]);
  });

  it('credentials in a misbehaving proxy URL stay masked', async () => {
    proxy = await startHostileProxy('hangs-up-on-connect');
    const withCredentials = proxy.url.replace('//', '//lkuser:s3cretpass@');
    const result = await bed.lk(['whoami', ...trust], { env: { HTTPS_PROXY: withCredentials } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`lk: the proxy ${proxy.url.replace('//', '//***:***@')} (from HTTPS_PROXY) closed the connection on CONNECT`);
    expect(result.stderr).not.toContain('s3cretpass');
  });
});

describeWith(['openssl'], 'how a request travels through a proxy', () => {
  let bed: TestBed;
  let https: TestBed;
  let pki: TestPki;
  let proxy: HostileProxy;
  beforeAll(async () => {
    pki = makeTestPki();
    bed = await startTestBed();
    https = await startTestBed({ tls: pki.valid });
    proxy = await startHostileProxy('hangs-up-on-connect');
  });
  afterAll(async () => {
    await proxy.stop();
    await bed.sandbox.close();
    await https.sandbox.close();
  });

  it('plain http is forwarded in absolute form, as curl does; https still opens a CONNECT tunnel', async () => {
    const host = new URL(bed.sandbox.url).host;
    await bed.lk(['whoami'], { env: { HTTP_PROXY: proxy.url } });
    expect(proxy.requestLines[0]).toBe(`GET http://${host}/v1/me HTTP/1.1`);
    proxy.requestLines.length = 0;
    await https.lk(['whoami', '--cacert', pki.caFile], { env: { HTTPS_PROXY: proxy.url } });
    expect(proxy.requestLines[0]).toBe(`CONNECT ${new URL(https.sandbox.url).host} HTTP/1.1`);
  });
});
