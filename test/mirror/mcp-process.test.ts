import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { lkSpawnArgs, startTestBed, type TestBed } from '../e2e/harness.js';
import { childrenOf, running } from '../support/processes.js';
import { RUNAWAY } from '../support/synced-mirror.js';
import { tempDir } from '../support/temp-dir.js';
import { until } from '../support/until.js';
import { call, linesOf, mcpEnv, pipeTransport, queryProcessesOf } from './mcp-support.js';
import { describeWithSqlite, describeWithoutSqlite, hasSqlite } from '../support/sqlite-node.js';

// `lk mcp` as a real process on the 2025-11-25 revision (the initialize handshake; 2026-07-28:
// mcp-process-2026.test.ts), for what only a process shows: its stdio framing and stderr, the host closing the pipe
// or sending a signal while a query runs, and a host firing many calls at once (the process count read from /proc).
// What the tools answer is tested in this process, on pipes (mcp.test.ts, mcp-protocol.test.ts, mcp-assistant.test.ts).

let bed: TestBed;
let mirror: string;

beforeAll(async () => {
  bed = await startTestBed({ entries: 200, rateLimit: 0, exportIntervalSeconds: 0 });
  mirror = join(tempDir('lk-mcp-process-'), 'mirror.db');
  if (hasSqlite) expect((await bed.lk(['sync', '--db', mirror])).code).toBe(0);
});

afterAll(async () => {
  await bed.sandbox.close();
});

interface Served {
  child: ChildProcessWithoutNullStreams;
  exited: Promise<[number | null, NodeJS.Signals | null]>;
  stderr: () => string;
}

/** `lk mcp` as a process, --timeout far beyond any test: only lk itself can stop a query here. */
function serve(args: string[] = []): Served {
  const child = spawn(...lkSpawnArgs(['mcp', '--db', mirror, '--timeout', '600', ...args]), {
    env: mcpEnv(bed),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('exit', (code, signal) => resolve([code, signal])));
  return { child, exited, stderr: () => stderr };
}

const initialize = {
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
const toolCall = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});
const lines = (...messages: unknown[]) => messages.map((message) => `${JSON.stringify(message)}\n`).join('');

describeWithoutSqlite(`on Node ${process.versions.node} (no node:sqlite)`, () => {
  // Issue 44: it exited 1 at once with the reason on stderr, which hosts hide ("Connection closed"); it now answers.
  it(`on Node ${process.versions.node} (no node:sqlite) lk mcp answers initialize and tools/list with an error naming Node 22.13 and the single file, a tool call with a tool error, and exits 1 once stdin closes`, async () => {
    const { child, exited, stderr } = serve();
    const answers = linesOf(child.stdout) as { id?: unknown; error?: { code: number; message: string }; result?: unknown }[];
    const listTools = { jsonrpc: '2.0', id: 'list', method: 'tools/list' };
    child.stdin.write(
      lines(initialize, initialized, listTools, toolCall(1, 'sql', { query: 'SELECT 1' }), { jsonrpc: '2.0', id: 'p', method: 'ping' }),
    );
    await until(() => answers.length === 4);
    const reason = expect.stringMatching(
      new RegExp(
        `^lk mcp needs Node 22\\.13 or later \\(for its built-in SQLite, node:sqlite\\); this is Node ${process.versions.node.replace(/\./g, '\\.')}\\. ` +
          "Use lk's single file, which carries its own Node \\(the release binary `lk`, or `npm run sea` in lk's sources\\), or install Node 22\\.13 or later",
      ),
    );
    expect(answers[0]).toEqual({ jsonrpc: '2.0', id: 'init', error: { code: -32000, message: reason } });
    expect(answers[1]).toEqual({ jsonrpc: '2.0', id: 'list', error: { code: -32000, message: reason } });
    expect(answers[2]).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: reason }], isError: true } });
    expect(answers[3]).toEqual({ jsonrpc: '2.0', id: 'p', result: {} });
    expect(child.exitCode).toBe(null);
    child.stdin.end();
    expect(await exited).toEqual([1, null]);
    expect(stderr()).toMatch(/^lk: lk mcp needs Node 22\.13 or later .*single file/);
  });

  it(`on Node ${process.versions.node} the SDK's client sees the reason when it connects`, async () => {
    const { child, exited } = serve();
    const client = new Client({ name: 'lk-test', version: '1.0.0' });
    await expect(client.connect(pipeTransport(child.stdout, child.stdin))).rejects.toThrow(/lk mcp needs Node 22\.13 or later/);
    child.stdin.end();
    expect(await exited).toEqual([1, null]);
  });
});

describeWithSqlite('lk mcp told to stop during a long sql call', () => {
  for (const [how, expected] of [
    ['the client closes stdin', [0, null]],
    ['SIGTERM', [143, null]],
    ['SIGINT', [130, null]],
    ['SIGHUP', [129, null]],
  ] as const) {
    it(`${how}: no answer after it, the query process ended, exit ${expected[0]}`, async () => {
      const { child, exited } = serve();
      const answers = linesOf(child.stdout);
      child.stdin.write(lines(initialize, initialized, toolCall(1, 'sql', { query: RUNAWAY })));
      await until(() => queryProcessesOf(child.pid!).length === 1);
      const [query] = queryProcessesOf(child.pid!);
      if (how === 'the client closes stdin') child.stdin.end();
      else child.kill(how);
      expect(await exited).toEqual(expected);
      await until(() => !running(query!));
      expect(answers).toEqual([expect.objectContaining({ id: 'init' })]);
    });
  }
});

describeWithSqlite('lk mcp under 1,000 pipelined calls', () => {
  it('answers every id, never runs more than two query processes, and prints no warning', async () => {
    const { child, exited, stderr } = serve();
    const answers = linesOf(child.stdout) as { id?: unknown; result?: { isError?: boolean; structuredContent?: unknown } }[];
    const calls = Array.from({ length: 1000 }, (_, index) =>
      index % 2 === 0
        ? toolCall(index, 'sql', { query: `SELECT ${index} AS n, count(*) AS entries FROM entries` })
        : toolCall(index, 'search', { text: 'the' }),
    );
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, childrenOf(child.pid!).length)), 5);
    try {
      child.stdin.write(lines(initialize, initialized, ...calls));
      await until(() => answers.length === 1001);
    } finally {
      clearInterval(watch);
    }
    const ids = answers.map((answer) => answer.id).filter((id) => id !== 'init');
    expect(new Set(ids).size).toBe(1000);
    expect(answers.filter((answer) => answer.result?.isError)).toEqual([]);
    expect(answers.find((answer) => answer.id === 998)!.result!.structuredContent).toMatchObject({ rows: [{ n: 998, entries: 200 }] });
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(2);
    child.stdin.end();
    expect(await exited).toEqual([0, null]);
    expect(stderr()).not.toMatch(/Warning/);
    for (const line of stderr().split('\n').filter(Boolean)) expect(line).toMatch(/^lk mcp: /);
  }, 120_000);
});

describeWithSqlite('lk mcp with the v1 SDK client over a real pipe (2025-11-25)', () => {
  it('initializes as lk on 2025-11-25 and answers; a cancelled call ends its query process; quitting the host ends it with exit 0 and leaves no process behind; stdout only JSON-RPC, stderr only its own lines, never the key', async () => {
    const { child, exited, stderr } = serve();
    const written = linesOf(child.stdout) as { jsonrpc?: string; result?: { protocolVersion?: string; serverInfo?: { name: string } } }[];
    const client = new Client({ name: 'lk-test', version: '1.0.0' });
    await client.connect(pipeTransport(child.stdout, child.stdin));
    expect(client.getServerVersion()?.name).toBe('lk');
    expect(written[0]!.result).toMatchObject({ protocolVersion: '2025-11-25', serverInfo: { name: 'lk' } });
    expect((await client.listTools()).tools.length).toBe(14);
    const found = await call(client, 'search', { text: 'the' });
    expect(found.isError).toBeFalsy();
    expect(found.structuredContent!.total).toBeGreaterThan(0);
    const cancel = new AbortController();
    const cancelled = client.callTool({ name: 'sql', arguments: { query: RUNAWAY } }, undefined, { signal: cancel.signal });
    await until(() => queryProcessesOf(child.pid!).length === 1);
    const [query] = queryProcessesOf(child.pid!);
    cancel.abort();
    await expect(cancelled).rejects.toThrow();
    await until(() => !running(query!));
    const next = (await client.callTool({ name: 'sql', arguments: { query: 'SELECT count(*) AS n FROM entries' } })) as {
      structuredContent: unknown;
    };
    expect(next.structuredContent).toMatchObject({ rows: [{ n: 200 }] });
    const idle = queryProcessesOf(child.pid!);
    child.stdin.end();
    expect(await exited).toEqual([0, null]);
    for (const pid of idle) await until(() => !running(pid));
    expect(written.length).toBeGreaterThan(2);
    for (const line of written) expect(line).toMatchObject({ jsonrpc: '2.0' });
    expect(stderr()).toMatch(/^lk mcp: serving .*mirror\.db on stdio, read-only/m);
    for (const line of stderr().split('\n').filter(Boolean)) expect(line).toMatch(/^lk mcp: /);
    expect(stderr()).not.toContain(bed.env().LK_API_KEY!);
  });
});

describeWithSqlite('lk mcp given more than it reads at once (issue 45)', () => {
  it('a line over 10 MiB gets a -32600 error with id null, and the calls after it are answered', async () => {
    const { child, exited, stderr } = serve();
    const answers = linesOf(child.stdout) as {
      id?: unknown;
      error?: { code: number; message: string };
      result?: { structuredContent?: unknown };
    }[];
    child.stdin.write(lines(initialize, initialized));
    child.stdin.write(`{"jsonrpc":"2.0","id":7,"method":"ping","params":{"pad":"${'x'.repeat(11 * 1024 * 1024)}"}}\n`);
    child.stdin.write(lines(toolCall(8, 'sql', { query: 'SELECT count(*) AS n FROM entries' })));
    await until(() => answers.length === 3);
    expect(answers[1]).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: expect.stringMatching(/^Invalid Request: the message is 11534\d{3} bytes long; lk mcp reads messages of up to 10485760 bytes/),
      },
    });
    expect(answers[2]).toMatchObject({ id: 8, result: { structuredContent: { rows: [{ n: 200 }] } } });
    expect(child.exitCode).toBe(null);
    child.stdin.end();
    expect(await exited).toEqual([0, null]);
    expect(stderr()).toMatch(/^lk mcp: a line of 11534\d{3} bytes, longer than 10485760 \(answered -32600\)$/m);
  });

  it('the calls written before stdin closes are answered before lk mcp ends (printf … | lk mcp)', async () => {
    const { child, exited } = serve();
    const answers = linesOf(child.stdout) as { id?: unknown }[];
    child.stdin.end(lines(initialize, initialized, { jsonrpc: '2.0', id: 'p1', method: 'ping' }, { jsonrpc: '2.0', id: 'p2', method: 'ping' }));
    expect(await exited).toEqual([0, null]);
    await until(() => answers.length >= 3);
    expect(answers.map((answer) => answer.id)).toEqual(['init', 'p1', 'p2']);
  });

  it('12 MiB of pipelined messages (each 10 KB) are all answered: stdin waits while they are handed on', async () => {
    const { child, exited } = serve();
    const answers = linesOf(child.stdout) as { id?: unknown; result?: unknown }[];
    const padded = (id: number) => `{"jsonrpc":"2.0",${' '.repeat(10_000)}"id":${id},"method":"ping"}\n`;
    child.stdin.write(lines(initialize, initialized) + Array.from({ length: 1200 }, (_, i) => padded(i)).join(''));
    await until(() => answers.length === 1201);
    expect(answers.slice(1).map((answer) => answer.id)).toEqual(Array.from({ length: 1200 }, (_, i) => i));
    child.stdin.end();
    expect(await exited).toEqual([0, null]);
  }, 60_000);
});
