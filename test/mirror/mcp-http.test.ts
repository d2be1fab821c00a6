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
  tokenFile = join(dataDir, 'token');
  writeFileSync(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
  if (hasSqlite) expect((await bed.lk(['sync', '--db', mirror])).code).toBe(0);
});

afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  await bed.sandbox.close();
});

/** The token every lk serve --mcp here is started with (issue 57: /mcp is never served without one). */
const TOKEN = 'a-long-token-for-the-tests-0123456789';
let tokenFile: string;

/** `lk serve --mcp --token-file … ARGS` as a process: its address (the first line on stdout), its stderr, a way to stop it. */
async function serve(args: string[] = []): Promise<{ url: string; stderr(): string; stop(): Promise<number | null> }> {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, TZ: 'UTC', LANG: 'C.UTF-8', ...bed.env(), LK_DATA_DIR: dataDir };
  const child = spawn(...lkSpawnArgs(['serve', '--mcp', '--port', '0', '--db', mirror, '--token-file', tokenFile, ...args]), {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
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
    stderr: () => stderr,
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

const BEARER = { authorization: `Bearer ${TOKEN}` };

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
    await client.connect(new V2HttpTransport(endpoint, { requestInit: { headers: BEARER } }));
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
    await client.connect(new V1HttpTransport(endpoint, { requestInit: { headers: BEARER } }));
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
    expect((await post(endpoint.href, BEARER, INITIALIZE)).status).toBe(200);
    expect((await post(endpoint.href, { ...BEARER, origin: `http://localhost:${port}` }, INITIALIZE)).status).toBe(200);
    expect((await post(endpoint.href, { ...BEARER, origin: `http://127.0.0.1:${port}`, host: `localhost:${port}` }, INITIALIZE)).status).toBe(200);
    for (const headers of [
      { origin: 'http://evil.example' } as Record<string, string>,
      { origin: `http://evil.example:${port}` },
      { origin: `http://localhost:${Number(port) + 1}` },
      { origin: 'null' },
      { host: `evil.example:${port}` },
      { host: 'evil.example', origin: 'http://evil.example' },
    ]) {
      const refused = await post(endpoint.href, { ...BEARER, ...headers }, INITIALIZE);
      expect(refused.status, JSON.stringify(headers)).toBe(403);
      expect(refused.text).not.toContain('jsonrpc');
    }
  });

  // The suite's active server scenarios in one run (one node starting up, 1 s, instead of one per scenario), against
  // the baseline of those lk fails by design (test/fixtures/mcp-conformance-baseline.yml): the run exits 0 only when
  // every other scenario passes and no listed one does. These are the ones that apply to a read-only server without
  // OAuth (issue 61), each checked in the summary by name.
  const scenarios = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection', 'completion-complete', 'resources-list', 'prompts-list'];
  let summary: { code: number | null; output: string };
  beforeAll(async () => {
    // The suite writes its results under its working directory.
    const cwd = tempDir('lk-mcp-conformance-');
    const cli = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url));
    const baseline = fileURLToPath(new URL('../fixtures/mcp-conformance-baseline.yml', import.meta.url));
    const withToken = new URL(`?token=${TOKEN}`, endpoint).href;
    const run = spawn(process.execPath, [cli, 'server', '--url', withToken, '--expected-failures', baseline], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    run.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    run.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    summary = { code: await new Promise<number | null>((resolve) => run.on('exit', resolve)), output };
  }, 60_000);

  it('passes the conformance suite: no failure outside its baseline, no stale entry in it', () => {
    expect(summary.code, summary.output).toBe(0);
  });

  it.for(scenarios)('passes the conformance suite scenario %s', (scenario, { expect }) => {
    expect(summary.output).toMatch(new RegExp(`^✓ ${scenario}: [1-9]\\d* passed, 0 failed$`, 'm'));
  });
});

describeWithSqlite('lk serve --mcp: the token, always', () => {
  // Issue 57: every user of the machine reaches loopback, and /mcp serves the notes (get_entry, sql): the token is
  // what makes it the owner's, on loopback as anywhere else.
  let server: { url: string; stderr(): string; stop(): Promise<number | null> };

  beforeAll(async () => {
    server = await serve();
  });
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
  });

  it('without --token-file, on loopback too: exit 2 naming --token-file, before the mirror is read or a port taken', async () => {
    // A --db that does not exist: had lk read it, it would say "no mirror" (exit 1).
    const result = await bed.lk(['serve', '--mcp', '--port', '0', '--db', join(dataDir, 'none.db')], { key: null, env: { LK_DATA_DIR: dataDir } });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe(
      'lk: --mcp serves the private data of the mirror (notes, private reviews, lk sql): it needs --token-file, on loopback too',
    );
    const help = await bed.lk(['serve', '--help'], { key: null });
    expect(help.stdout).not.toContain('Every address serves the public projection');
    expect(help.stdout).toMatch(/\/mcp is not a document: it is the owner's surface/);
  });

  it('on loopback, a raw request without the token or with a wrong one gets 401 and nothing of the mirror', async () => {
    const endpoint = new URL('mcp', server.url);
    const notes = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'sql', arguments: { query: 'SELECT notes FROM entries' } } };
    for (const headers of [{}, { authorization: 'Bearer not-the-token-at-all' }, { authorization: `Bearer ${TOKEN.slice(1)}` }] as Record<
      string,
      string
    >[])
      for (const body of [INITIALIZE, notes]) {
        const refused = await post(endpoint.href, headers, body);
        expect(refused.status, JSON.stringify(headers)).toBe(401);
        expect(refused.text).not.toContain('jsonrpc');
      }
    expect((await post(`${endpoint.href}?token=${TOKEN}x`, {}, INITIALIZE)).status).toBe(401);
  });

  it('serves /mcp with the token as Bearer or as ?token=', async () => {
    const endpoint = new URL('mcp', server.url);
    const bearer = new V2Client({ name: 'lk-test', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await bearer.connect(new V2HttpTransport(endpoint, { requestInit: { headers: BEARER } }));
    expect(bearer.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect((await bearer.listResources()).resources.length).toBe(2);
    await bearer.close();
    const query = new V1Client({ name: 'lk-test', version: '1' });
    await query.connect(new V1HttpTransport(new URL(`mcp?token=${TOKEN}`, server.url)));
    expect((await query.listTools()).tools.length).toBeGreaterThan(5);
    await query.close();
  });

  it('a Host with userinfo is refused before the MCP library sees it, and no line on stderr carries the token', async () => {
    const { port } = new URL(server.url);
    for (const host of [`x:${TOKEN}@127.0.0.1:${port}`, `${TOKEN}@localhost:${port}`]) {
      const answer = await post(new URL(`mcp?token=${TOKEN}`, server.url).href, { host }, INITIALIZE);
      expect(answer.status, host).toBe(403);
      expect(answer.text).not.toContain('jsonrpc');
    }
    // And the MCP library's own failures are logged without it: a body it cannot parse, sent with the token.
    expect((await postRaw(new URL(`mcp?token=${TOKEN}`, server.url).href, '{not json')).status).toBe(400);
    await until(() => server.stderr().includes('/mcp'));
    expect(server.stderr()).not.toContain(TOKEN);
    expect(server.stderr()).not.toContain(TOKEN.slice(0, 16));
  });
});

describeWithSqlite('lk serve --mcp off loopback', () => {
  let server: { url: string; stderr(): string; stop(): Promise<number | null> };

  beforeAll(async () => {
    server = await serve(['--host', '0.0.0.0']);
  });
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
  });

  it('with the token, any Host is served (a LAN name, a Tailscale name, a proxy’s, another port); a foreign Origin is still 403', async () => {
    const { port } = new URL(server.url);
    const endpoint = `http://127.0.0.1:${port}/mcp`;
    for (const host of [`nas.lan:${port}`, 'lk.tailnet-1234.ts.net', 'lk.example.org', `nas.lan:${Number(port) + 1}`, '192.168.1.5:8787']) {
      const served = await post(endpoint, { ...BEARER, host }, INITIALIZE);
      expect(served.status, host).toBe(200);
      expect(served.text).toContain('"jsonrpc"');
      expect((await post(endpoint, { host }, INITIALIZE)).status, host).toBe(401);
    }
    // A browser on that name: the token does not let a web page in.
    expect((await post(endpoint, { ...BEARER, host: `nas.lan:${port}`, origin: `http://nas.lan:${port}` }, INITIALIZE)).status).toBe(403);
    expect((await post(endpoint, { ...BEARER, host: `x:${TOKEN}@nas.lan:${port}` }, INITIALIZE)).status).toBe(403);
    expect(server.stderr()).not.toContain(TOKEN);
  });
});

/** A POST to /mcp of these bytes, with the token's Host as node:http makes it. */
function postRaw(url: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, text }));
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}
