import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBed, type TestBed } from './harness.js';
import { makeTestPki, type TestPki } from './pki.js';
import { describeWith } from '../support/outside-tools.js';

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describeWith(['openssl'], 'an instance with its own certificate authority', () => {
  let pki: TestPki;
  let other: TestPki;
  let bed: TestBed;
  beforeAll(async () => {
    pki = makeTestPki();
    other = makeTestPki();
    bed = await startTestBed({ tls: pki.valid });
  });
  afterAll(() => bed.sandbox.close());

  it('the sandbox serves https when given a key and certificate', () => {
    expect(bed.sandbox.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  });

  it('without the CA: one plain line naming the host and the cause, the way out, exit 1', async () => {
    const result = await bed.lk(['whoami']);
    expect(result.code).toBe(1);
    const host = new URL(bed.sandbox.url).host;
    expect(result.stderr).toContain(`lk: TLS with ${host} failed: its certificate is signed by an authority this machine does not trust`);
    expect(result.stderr).toMatch(/--cacert FILE/);
    expect(result.stderr.trim().split('\n')).toHaveLength(2);
    expect(bed.sandbox.counters.requests).toBe(0);
  });

  it('--cacert FILE trusts the CA', async () => {
    const result = await bed.lk(['whoami', '--cacert', pki.caFile, '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveProperty('account');
  });

  it('LK_CA_FILE trusts the CA', async () => {
    const result = await bed.lk(['whoami', '--json'], { env: { LK_CA_FILE: pki.caFile } });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toHaveProperty('account');
  });

  it('`lk config set ca-file` trusts the CA from then on', async () => {
    const set = await bed.lk(['config', 'set', 'ca-file', pki.caFile]);
    expect(set.code).toBe(0);
    try {
      expect((await bed.lk(['whoami', '--json'])).code).toBe(0);
    } finally {
      await bed.lk(['config', 'unset', 'ca-file']);
    }
  });

  it('a CA file that cannot be read is a usage error before any request', async () => {
    bed.sandbox.resetCounters();
    const result = await bed.lk(['whoami', '--cacert', `${pki.dir}/missing.pem`]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^lk: cannot read the CA file .*missing\.pem: ENOENT \(from --cacert\)/);
    expect(bed.sandbox.counters.requests).toBe(0);
  });

  it('NODE_EXTRA_CA_CERTS trusts the CA (read by Node at start: a real process)', async () => {
    const without = await bed.lkProcess(['whoami'], { env: { NODE_EXTRA_CA_CERTS: undefined } });
    expect(without.code).toBe(1);
    expect(without.stderr).toMatch(/does not trust/);
    const withCa = await bed.lkProcess(['whoami', '--json'], { env: { NODE_EXTRA_CA_CERTS: pki.caFile } });
    expect(withCa.stderr).toBe('');
    expect(withCa.code).toBe(0);
  });

  it('--cacert adds to NODE_EXTRA_CA_CERTS rather than replacing it', async () => {
    const result = await bed.lkProcess(['whoami', '--json', '--cacert', other.caFile], { env: { NODE_EXTRA_CA_CERTS: pki.caFile } });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });
});

describeWith(['openssl'], 'TLS failures name the host and the cause', () => {
  let pki: TestPki;
  beforeAll(() => {
    pki = makeTestPki();
  });

  it('an expired certificate', async () => {
    const bed = await startTestBed({ tls: pki.expired });
    try {
      const result = await bed.lk(['whoami', '--cacert', pki.caFile]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`lk: TLS with ${new URL(bed.sandbox.url).host} failed: its certificate has expired`);
      expect(result.stderr).toMatch(/renew/);
    } finally {
      await bed.sandbox.close();
    }
  });

  it('a certificate for another name', async () => {
    const bed = await startTestBed({ tls: pki.wrongName });
    try {
      const result = await bed.lk(['whoami', '--cacert', pki.caFile]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        `lk: TLS with ${new URL(bed.sandbox.url).host} failed: its certificate is for DNS:wrong.example, not 127.0.0.1`,
      );
      expect(result.stderr).toMatch(/host name the certificate was issued for/);
    } finally {
      await bed.sandbox.close();
    }
  });

  it('https to a plain http port', async () => {
    const bed = await startTestBed();
    try {
      const url = bed.sandbox.url.replace('http://', 'https://');
      const result = await bed.lk(['whoami'], { env: { LK_BASE_URL: url } });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`lk: TLS with ${new URL(url).host} failed: it answered in plain http, not TLS`);
      expect(bed.sandbox.counters.requests).toBe(0);
    } finally {
      await bed.sandbox.close();
    }
  });

  it('plain http to an https port', async () => {
    const bed = await startTestBed({ tls: pki.valid });
    try {
      const url = bed.sandbox.url.replace('https://', 'http://');
      const result = await bed.lk(['whoami'], { env: { LK_BASE_URL: url } });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`If ${new URL(url).host} serves https, use --base-url https://${new URL(url).host}.`);
    } finally {
      await bed.sandbox.close();
    }
  });
});

describe('connection refused', () => {
  it('names the host, and is not retried', async () => {
    const port = await closedPort();
    const bed = await startTestBed();
    try {
      const waits: string[] = [];
      const result = await bed.lk(['whoami'], {
        env: { LK_BASE_URL: `http://127.0.0.1:${port}` },
        sleep: async (_ms, reason) => void waits.push(String(reason)),
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`lk: cannot connect to 127.0.0.1:${port}: connection refused\n`);
      expect(result.stderr).toMatch(/Is the instance running/);
      expect(waits).toEqual([]);
    } finally {
      await bed.sandbox.close();
    }
  });
});
