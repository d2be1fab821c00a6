import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { lkSpawnArgs, startTestBed, type TestBed } from '../e2e/harness.js';
import { tempDir } from '../support/temp-dir.js';
import { until } from '../support/until.js';
import { lkJson } from './mcp-support.js';
import { describeWithSqlite, hasSqlite } from '../support/sqlite-node.js';

// Issue 49: lk serve --mcp, lk mcp's server over Streamable HTTP at /mcp, spoken to by the v1 SDK's client (2025-11-25)
// and the v2 client in auto mode (2026-07-28), with lk serve's token rules and DNS-rebinding protection, and run
// against the official conformance suite (@modelcontextprotocol/conformance) as CI would run it.

let bed: TestBed;
let dataDir: string;
let mirror: string;
const running = new Set<ChildProcessWithoutNullStreams>();

beforeAll(async () => {
  bed = await startTestBed({ entries: 40, rateLimit: 0, exportIntervalSeconds: 0 });
  dataDir = tempDir('lk-mcp-http-');
  mirror = join(dataDir, 'mirror.db');
  if (hasSqlite) expect((await bed.lk(['sync', '--db', mirror])).code).toBe(0);
});

afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  await bed.sandbox.close();
});

/** `lk serve --mcp ARGS` as a process: its address (the first line on stdout) and a way to stop it. */
async function serve(args: string[] = []): Promise<{ url: string; stop(): Promise<number | null> }> {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, TZ: 'UTC', LANG: 'C.UTF-8', ...bed.env(), LK_DATA_DIR: dataDir };
  const child = spawn(...lkSpawnArgs(['serve', '--mcp', '--port', '0', '--db', mirror, ...args]), { env, stdio: ['pipe', 'pipe', 'pipe'] });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => (running.delete(child), resolve(code))));
  let gone = false;
  void exited.then(() => (gone = true));
  await until(() => stdout.includes('\n') || gone);
  if (gone) throw new Error(`lk serve ended before listening: ${stderr}`);
  return {
    url: stdout.split('\n')[0]!,
    stop: () => (child.kill('SIGTERM'), exited),
  };
}

/** A POST to /mcp with these headers, through node:http (which, unlike fetch, sends the Host it is given). */
function post(url: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, text }));
      },
    );
    sent.on('error', reject);
    sent.end(JSON.stringify(body));
  });
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'lk-test', version: '1' } },
};

const readText = (result: { contents: object[] }) => JSON.parse((result.contents[0] as { text: string }).text) as unknown;

describeWithSqlite('lk serve --mcp', () => {
  let server: { url: string; stop(): Promise<number | null> };
  let endpoint: URL;

  beforeAll(async () => {
    server = await serve();
    endpoint = new URL('mcp', server.url);
  });
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
  });

  it('the v2 client in auto mode settles on 2026-07-28 over HTTP, and reads lk://status as lk status --json --offline prints it', async () => {
    const client = new V2Client({ name: 'lk-test', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new V2HttpTransport(endpoint));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      expect(client.getDiscoverResult()?.supportedVersions).toEqual(expect.arrayContaining(['2026-07-28', '2025-11-25']));
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(5);
      for (const tool of tools) expect(tool.annotations?.readOnlyHint).toBe(true);
      expect(readText(await client.readResource({ uri: 'lk://status' }))).toEqual(await lkJson(bed, ['status', '--offline', '--db', mirror]));
    } finally {
      await client.close();
    }
  });

  it('the v1 SDK client (2025-11-25) lists and calls tools, reads resources and gets prompts over HTTP', async () => {
    const client = new V1Client({ name: 'lk-test', version: '1' });
    await client.connect(new V1HttpTransport(endpoint));
    try {
      expect(client.getServerVersion()?.name).toBe('lk');
      const search = await client.callTool({ name: 'list_library', arguments: { limit: 3 } });
      const ids = (search.structuredContent as { results: { id: string }[] }).results.map((result) => result.id);
      expect(ids).toHaveLength(3);
      const entry = readText(await client.readResource({ uri: `lk://entry/${ids[0]}` })) as { entry: { id: string } };
      expect(entry.entry.id).toBe(ids[0]);
      expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toContain('tonight');
    } finally {
      await client.close();
    }
  });

  it('a request with no Origin is served; an Origin or Host that is not the listening address or loopback is refused with 403', async () => {
    const port = endpoint.port;
    expect((await post(endpoint.href, {}, INITIALIZE)).status).toBe(200);
    expect((await post(endpoint.href, { origin: `http://localhost:${port}` }, INITIALIZE)).status).toBe(200);
    expect((await post(endpoint.href, { origin: `http://127.0.0.1:${port}`, host: `localhost:${port}` }, INITIALIZE)).status).toBe(200);
    for (const headers of [
      { origin: 'http://evil.example' } as Record<string, string>,
      { origin: `http://evil.example:${port}` },
      { origin: `http://localhost:${Number(port) + 1}` },
      { origin: 'null' },
      { host: `evil.example:${port}` },
      { host: 'evil.example', origin: 'http://evil.example' },
    ]) {
      const refused = await post(endpoint.href, headers, INITIALIZE);
      expect(refused.status, JSON.stringify(headers)).toBe(403);
      expect(refused.text).not.toContain('jsonrpc');
    }
  });

  it.each(['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'])(
    'passes the conformance suite scenario %s',
    async (scenario) => {
      // The suite writes its results under its working directory: a folder of this test's, removed after it.
      const cwd = tempDir('lk-mcp-conformance-');
      const cli = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url));
      const run = spawn(process.execPath, [cli, 'server', '--url', endpoint.href, '--scenario', scenario], {
        cwd,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      run.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      run.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      const code = await new Promise<number | null>((resolve) => run.on('exit', resolve));
      expect(code, output).toBe(0);
      expect(output).toMatch(/Passed: [1-9]\d*\/\d+, 0 failed/);
    },
    60_000,
  );
});

describeWithSqlite('lk serve --mcp with a token', () => {
  let server: { url: string; stop(): Promise<number | null> };
  const token = 'a-long-token-for-the-tests-0123456789';

  beforeAll(async () => {
    const file = join(tempDir('lk-mcp-http-token-'), 'token');
    writeFileSync(file, `${token}\n`, { mode: 0o600 });
    server = await serve(['--token-file', file]);
  });
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
  });

  it('refuses /mcp without the token (401), and serves it as Bearer or as ?token=', async () => {
    const endpoint = new URL('mcp', server.url);
    expect((await post(endpoint.href, {}, INITIALIZE)).status).toBe(401);
    expect((await post(endpoint.href, { authorization: 'Bearer not-the-token-at-all' }, INITIALIZE)).status).toBe(401);
    const bearer = new V2Client({ name: 'lk-test', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await bearer.connect(new V2HttpTransport(endpoint, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    expect(bearer.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect((await bearer.listResources()).resources.length).toBe(2);
    await bearer.close();
    const query = new V1Client({ name: 'lk-test', version: '1' });
    await query.connect(new V1HttpTransport(new URL(`mcp?token=${token}`, server.url)));
    expect((await query.listTools()).tools.length).toBeGreaterThan(5);
    await query.close();
  });
});
