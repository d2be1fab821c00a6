import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { lkSpawnArgs, startTestBed, type TestBed } from '../e2e/harness.js';
import { tempDir } from '../support/temp-dir.js';
import { linesOf, lkJson, mcpEnv, pipeTransport } from './mcp-support.js';
import { describeWithSqlite, hasSqlite } from '../support/sqlite-node.js';

// `lk mcp` as a real process on the 2026-07-28 revision, spoken to by the v2 SDK's client in `auto` mode: what only
// a process shows — the stdio framing of server/discover and what follows, stdout and stderr, the exit when stdin
// closes. What each request answers is tested in this process, on pipes (mcp-protocol.test.ts); 2025-11-25, signals
// and load over stdio: mcp-process.test.ts.

let bed: TestBed;
let mirror: string;

beforeAll(async () => {
  bed = await startTestBed({ entries: 20, rateLimit: 0, exportIntervalSeconds: 0 });
  mirror = join(tempDir('lk-mcp-process-2026-'), 'mirror.db');
  if (hasSqlite) expect((await bed.lk(['sync', '--db', mirror])).code).toBe(0);
});

afterAll(async () => {
  await bed.sandbox.close();
});

describeWithSqlite('lk mcp over stdio with the v2 client (2026-07-28)', () => {
  it('settles on 2026-07-28 with no fallback and answers; ends with exit 0 when stdin closes; stdout only JSON-RPC, stderr only its own lines, never the key', async () => {
    const child = spawn(...lkSpawnArgs(['mcp', '--db', mirror]), { env: mcpEnv(bed), stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('exit', (code, signal) => resolve([code, signal])));
    const written = linesOf(child.stdout);
    const client = new V2Client({ name: 'lk-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(pipeTransport(child.stdout, child.stdin) as Parameters<V2Client['connect']>[0]);
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(client.getDiscoverResult()?.supportedVersions).toEqual(expect.arrayContaining(['2026-07-28', '2025-11-25']));
    expect((await client.listTools()).tools.length).toBe(14);
    const status = await client.readResource({ uri: 'lk://status' });
    expect(JSON.parse((status.contents[0] as { text: string }).text)).toEqual(await lkJson(bed, ['status', '--offline', '--db', mirror]));
    const counted = await client.callTool({ name: 'sql', arguments: { query: 'SELECT count(*) AS n FROM entries' } });
    expect(counted.structuredContent).toMatchObject({ rows: [{ n: 20 }] });
    child.stdin.end();
    expect(await exited).toEqual([0, null]);
    expect(written.length).toBeGreaterThan(3);
    for (const line of written) expect(line).toMatchObject({ jsonrpc: '2.0' });
    expect(stderr).toMatch(/^lk mcp: serving .*mirror\.db on stdio, read-only/m);
    for (const line of stderr.split('\n').filter(Boolean)) expect(line).toMatch(/^lk mcp: /);
    expect(stderr).not.toContain(bed.env().LK_API_KEY!);
  });
});
