import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBed, type TestBed } from './harness.js';
import { makeTestPki, type TestPki } from './pki.js';
import { startTinyproxy, type TestProxy } from './tinyproxy.js';
import { describeWith } from '../support/outside-tools.js';
import { freePort } from '../support/ports.js';

/** The proxy logs a request once it has handled it: wait for the line (long enough for a loaded machine). */
async function tunnelsAfter(proxy: TestProxy, count: number): Promise<string[]> {
  const deadline = Date.now() + 15_000;
  while (proxy.tunnels().length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return proxy.tunnels();
}

describeWith(['tinyproxy', 'openssl'], 'through a real forward proxy (tinyproxy on loopback)', () => {
  let pki: TestPki;
  let proxy: TestProxy;
  let https: TestBed;
  let http: TestBed;
  beforeAll(async () => {
    pki = makeTestPki();
    proxy = await startTinyproxy();
    https = await startTestBed({ tls: pki.valid });
    http = await startTestBed();
  });
  afterAll(async () => {
    await proxy.stop();
    await https.sandbox.close();
    await http.sandbox.close();
  });

  it('HTTPS_PROXY: an https instance is reached through a CONNECT tunnel, and -v names the proxy', async () => {
    const before = proxy.tunnels().length;
    const result = await https.lk(['whoami', '--json', '-v', '--cacert', pki.caFile], { env: { HTTPS_PROXY: proxy.url } });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(new RegExp(`lk: GET /v1/me → 200 .* · via proxy http://127\\.0\\.0\\.1:${proxy.port}\\n`));
    const host = new URL(https.sandbox.url).host;
    expect((await tunnelsAfter(proxy, before + 1)).slice(before)).toEqual([host]);
    // The key travelled inside the TLS tunnel: the instance got it, the proxy never saw it.
    expect(https.sandbox.counters.authorizationHeaders.at(-1)).toBe(`Bearer ${https.sandbox.key('full')}`);
    expect(proxy.log()).not.toContain('lk_');
    expect(proxy.log()).not.toMatch(/authorization/i);
  });

  it('the built binary (undici without its index) opens the tunnel too', async () => {
    const before = proxy.tunnels().length;
    const result = await https.lkProcess(['whoami', '--json', '--cacert', pki.caFile], { env: { HTTPS_PROXY: proxy.url } });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect((await tunnelsAfter(proxy, before + 1)).slice(before)).toEqual([new URL(https.sandbox.url).host]);
  });

  it('HTTP_PROXY: a plain-http instance goes through the proxy too (forwarded, not tunnelled), with a warning that the key crosses it in clear', async () => {
    const tunnelsBefore = proxy.tunnels().length;
    const result = await http.lk(['whoami', '--json'], { env: { HTTP_PROXY: proxy.url } });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /^lk: warning: the key goes in clear through the proxy http:\/\/127\.0\.0\.1:\d+ to plain-http 127\.0\.0\.1:\d+; use https, or NO_PROXY=127\.0\.0\.1\n$/,
    );
    const forwarded = `GET http://${new URL(http.sandbox.url).host}/v1/me`;
    const deadline = Date.now() + 15_000;
    while (!proxy.log().includes(forwarded) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(proxy.log()).toContain(forwarded);
    expect(proxy.tunnels()).toHaveLength(tunnelsBefore);
  });

  it.each([['127.0.0.1'], ['*'], ['localhost,127.0.0.1'], [`127.0.0.1:${0}`]])('NO_PROXY=%s: straight to the instance', async (noProxy) => {
    const value = noProxy.endsWith(':0') ? `127.0.0.1:${new URL(https.sandbox.url).port}` : noProxy;
    const before = proxy.tunnels().length;
    const result = await https.lk(['whoami', '--json', '-v', '--cacert', pki.caFile], { env: { HTTPS_PROXY: proxy.url, NO_PROXY: value } });
    expect(result.code).toBe(0);
    expect(result.stderr).not.toMatch(/via proxy/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(proxy.tunnels().length).toBe(before);
  });

  it('the lowercase variable wins over the uppercase one, as in curl', async () => {
    const closed = await freePort();
    const result = await https.lk(['whoami', '--cacert', pki.caFile], { env: { https_proxy: `http://127.0.0.1:${closed}`, HTTPS_PROXY: proxy.url } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`lk: the proxy http://127.0.0.1:${closed} (from https_proxy) cannot be reached (connection refused)`);
  });

  it('credentials in the proxy URL are used, and never printed', async () => {
    const guarded = await startTinyproxy(['BasicAuth lkuser s3cretpass']);
    try {
      const url = `http://lkuser:s3cretpass@127.0.0.1:${guarded.port}`;
      const result = await https.lk(['whoami', '--json', '-v', '--cacert', pki.caFile], { env: { HTTPS_PROXY: url } });
      expect(result.code).toBe(0);
      expect(result.stderr).toContain(`via proxy http://***:***@127.0.0.1:${guarded.port}`);
      expect(result.stderr + result.stdout).not.toContain('s3cretpass');
      expect(await tunnelsAfter(guarded, 1)).toHaveLength(1);
      const refused = await https.lk(['whoami', '--cacert', pki.caFile], { env: { HTTPS_PROXY: `http://lkuser:wrong@127.0.0.1:${guarded.port}` } });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`lk: the proxy http://***:***@127.0.0.1:${guarded.port} (from HTTPS_PROXY) refused the connection to`);
      expect(refused.stderr).not.toContain('wrong@');
    } finally {
      await guarded.stop();
    }
  });
});

describe('a proxy that refuses', () => {
  let bed: TestBed;
  beforeAll(async () => {
    bed = await startTestBed();
  });
  afterAll(() => bed.sandbox.close());

  it('nothing listening on the proxy port: a clear error naming the proxy, exit 1, no retries', async () => {
    const closed = await freePort();
    const waits: string[] = [];
    const result = await bed.lk(['whoami'], {
      env: { HTTP_PROXY: `http://127.0.0.1:${closed}` },
      sleep: async (_ms, reason) => void waits.push(String(reason)),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`lk: the proxy http://127.0.0.1:${closed} (from HTTP_PROXY) cannot be reached (connection refused)\n`);
    expect(result.stderr).toContain('NO_PROXY=127.0.0.1');
    expect(waits).toEqual([]);
    expect(bed.sandbox.counters.requests).toBe(0);
  });

  describeWith(['tinyproxy', 'openssl'], 'tinyproxy, denying CONNECT', () => {
    it('a proxy that denies the tunnel: the status it answered, exit 1', async () => {
      const pki = makeTestPki();
      const https = await startTestBed({ tls: pki.valid });
      const denying = await startTinyproxy(['ConnectPort 1']);
      try {
        const result = await https.lk(['whoami', '--cacert', pki.caFile], { env: { HTTPS_PROXY: denying.url } });
        expect(result.code).toBe(1);
        expect(result.stderr).toContain(
          `lk: the proxy ${denying.url} (from HTTPS_PROXY) refused the connection to ${new URL(https.sandbox.url).host} (HTTP 403)`,
        );
        expect(https.sandbox.counters.requests).toBe(0);
      } finally {
        await denying.stop();
        await https.sandbox.close();
      }
    });
  });
});
