import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { isWellFormedKey, runSandboxCommand } from '../../src/sandbox/index.js';
import { isLoopback } from '../../src/sandbox/index.js';

function capture() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return { stream, text: () => text };
}

describe('runSandboxCommand', () => {
  it('with json prints one object {url, keys} and returns a running sandbox', async () => {
    const stdout = capture();
    const stderr = capture();
    const sandbox = await runSandboxCommand({ port: 0, json: true }, { stdout: stdout.stream, stderr: stderr.stream });
    try {
      const printed = JSON.parse(stdout.text());
      expect(Object.keys(printed)).toEqual(['url', 'keys']);
      expect(printed.url).toBe(sandbox.url);
      expect(printed.keys[0]).toMatchObject({ name: 'full', account: 'demo' });
      expect(printed.keys.every((key: { key: string }) => isWellFormedKey(key.key))).toBe(true);
      expect(stderr.text()).toBe('');
      expect((await fetch(`${printed.url}/v1/me`, { headers: { authorization: `Bearer ${printed.keys[0].key}` } })).status).toBe(200);
    } finally {
      await sandbox.close();
    }
  });

  it('without json prints a readable listing of the URL and every demo key', async () => {
    const stdout = capture();
    const sandbox = await runSandboxCommand({ port: 0 }, { stdout: stdout.stream, stderr: capture().stream });
    try {
      expect(stdout.text()).toContain(sandbox.url);
      for (const key of sandbox.keys) expect(stdout.text()).toContain(key.key);
    } finally {
      await sandbox.close();
    }
  });

  it('warns loudly on stderr when the host is not a loopback address', async () => {
    const stderr = capture();
    const sandbox = await runSandboxCommand({ port: 0, host: '0.0.0.0', json: true }, { stdout: capture().stream, stderr: stderr.stream });
    try {
      expect(stderr.text()).toMatch(/WARNING.*anyone/);
    } finally {
      await sandbox.close();
    }
  });

  it('knows loopback addresses', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) expect(isLoopback(host)).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.10', 'example.org']) expect(isLoopback(host)).toBe(false);
  });
});
