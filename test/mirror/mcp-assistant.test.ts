import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openForWriting } from '../../src/mirror/open.js';
import { startTestBed, type TestBed } from '../e2e/harness.js';
import { tempDir } from '../support/temp-dir.js';
import { RUNAWAY } from '../support/synced-mirror.js';
import { until } from '../support/until.js';
import { call, linesOf, lkJson, mcpInProcess, queryProcessesOf, type InProcessMcp, type ToolAnswer } from './mcp-support.js';
import { describeWithSqlite, hasSqlite } from '../support/sqlite-node.js';

// `lk mcp` as an assistant drives it, not as a polite test client: it cancels, sends many calls at once, sends
// lines that are not JSON and arguments of the wrong type, lists without a limit and serves only the tools its host
// has room for. In this process, on pipes, with the SDK's own client (mcp-process.test.ts: signals, load, the pipe).

const ENTRIES = 130;
let bed: TestBed;
let mirror: string;

beforeAll(async () => {
  bed = await startTestBed({ entries: ENTRIES, rateLimit: 0, exportIntervalSeconds: 0 });
  mirror = join(tempDir('lk-mcp-assistant-'), 'mirror.db');
  if (!hasSqlite) return;
  expect((await bed.lk(['sync', '--db', mirror])).code).toBe(0);
  // One entry as a real instance may send it: long notes, and nested fields SPEC.md does not show.
  const db = openForWriting(mirror);
  db.prepare(
    `UPDATE entries SET json = json_set(json, '$.notes', :notes, '$.shelves', json(:shelves)) WHERE id = (SELECT id FROM entries ORDER BY position LIMIT 1)`,
  ).run({ notes: 'A long note. '.repeat(50), shelves: JSON.stringify([{ name: 'favourites', items: [{ id: 1 }, { id: 2 }] }]) });
  db.close();
});

afterAll(async () => {
  await bed.sandbox.close();
});

const structured = (answer: ToolAnswer) =>
  answer.structuredContent as { results: { id: unknown; link: string | null }[]; nextCursor?: string; total: number };

/** Every page of a listing tool, following nextCursor to the end. */
async function allPages(client: Client, name: string, args: Record<string, unknown>): Promise<{ pages: ToolAnswer[]; ids: string[] }> {
  const pages: ToolAnswer[] = [];
  let cursor: string | undefined;
  do {
    const answer = await call(client, name, cursor === undefined ? args : { cursor });
    expect(answer.isError, answer.content[0]?.text).toBeFalsy();
    pages.push(answer);
    cursor = structured(answer).nextCursor;
  } while (cursor !== undefined);
  return { pages, ids: pages.flatMap((page) => structured(page).results.map((result) => String(result.id))) };
}

describeWithSqlite('lk mcp under an assistant (in-process)', () => {
  let server: InProcessMcp;
  let client: Client;

  beforeAll(async () => {
    server = mcpInProcess(bed, ['--db', mirror, '--timeout', '600']);
    client = await server.connect();
  });

  afterAll(async () => {
    server.stdin.end();
    expect(await server.exited).toBe(0);
  });

  it('a wrong argument type is one line under 300 characters naming the argument and what was expected', async () => {
    const answer = await call(client, 'list_library', { limit: '5', finished_from: 'last year' });
    expect(answer.isError).toBe(true);
    const text = answer.content[0]!.text;
    expect(text).not.toContain('\n');
    expect(text.length).toBeLessThan(300);
    expect(text).toMatch(/^bad arguments for list_library: /);
    expect(text).toContain('limit: expected number, got "5"');
    expect(text).toContain('finished_from: expected YYYY-MM-DD or an ISO 8601 instant');
    expect((await call(client, 'search', { text: 'a', colour: 'red' })).content[0]!.text).toBe(
      'bad arguments for search: arguments: unknown argument colour',
    );
  });

  it('list_library with no limit answers a page of 50 compact items, and nextCursor leads through the whole library', async () => {
    const { pages, ids } = await allPages(client, 'list_library', {});
    expect(pages.map((page) => structured(page).results.length)).toEqual([50, 50, ENTRIES - 100]);
    const all = (await lkJson(bed, ['library', '--offline', '--db', mirror, '--all'])) as { id: unknown; notes?: unknown }[];
    expect(ids).toEqual(all.map((entry) => String(entry.id)));
    expect(structured(pages[0]!).total).toBe(ENTRIES);
    for (const result of pages.flatMap((page) => structured(page).results)) {
      expect(result).toMatchObject({
        id: expect.anything() as unknown,
        work: { title: expect.any(String) as unknown },
        status: expect.any(String) as unknown,
      });
      expect(JSON.stringify(result).length).toBeLessThan(1200);
    }
  });

  it('get_entry gives the whole entry; a listing gives it compact: long notes cut, nested lists of objects left out', async () => {
    const page = structured(await call(client, 'list_library', { limit: 1 }));
    const compact = page.results[0] as unknown as { id: string; notes: string; shelves?: unknown };
    const whole = (await call(client, 'get_entry', { id: compact.id })).structuredContent!.entry as { item: { notes: string; shelves: unknown[] } };
    expect(whole.item.notes.length).toBe(650);
    expect(whole.item.shelves).toHaveLength(1);
    expect(compact.notes).toHaveLength(200);
    expect(whole.item.notes.startsWith(compact.notes.slice(0, -1))).toBe(true);
    expect(compact.shelves).toBeUndefined();
  });

  it('history pages through every event of a window, as lk history --offline --all lists them', async () => {
    const { pages, ids } = await allPages(client, 'history', { from: '2000-01-01', limit: 120 });
    expect(pages.length).toBeGreaterThan(1);
    const all = (await lkJson(bed, ['history', '--offline', '--db', mirror, '--from', '2000-01-01', '--all'])) as { id: unknown }[];
    expect(ids).toEqual(all.map((event) => String(event.id)));
  });

  it("a cursor continues its own listing only: a made-up one, another tool's or other arguments are a clear error", async () => {
    const first = structured(await call(client, 'list_library', { phase: 'DONE', limit: 2 }));
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = structured(await call(client, 'list_library', { phase: 'DONE', limit: 2, cursor: first.nextCursor }));
    expect(second.results.map((result) => result.id)).not.toEqual(first.results.map((result) => result.id));
    for (const [name, args, message] of [
      ['list_library', { cursor: 'bm90IGEgY3Vyc29y' }, /^cursor: not a cursor this server gave/],
      ['search', { text: 'a', cursor: first.nextCursor }, /^cursor: it continues list_library, not search/],
      ['list_library', { phase: 'PLANNED', cursor: first.nextCursor }, /^cursor: it continues a listing with other arguments \(phase\)/],
    ] as const) {
      const answer = await call(client, name, args);
      expect(answer.isError, name).toBe(true);
      expect(answer.content[0]!.text).toMatch(message);
    }
  });

  it('sql answers a page of 50 rows by default, says it cut, and its cursor gives the rows that follow', async () => {
    const query = 'SELECT id FROM entries ORDER BY id';
    const first = (await call(client, 'sql', { query })).structuredContent as { rows: unknown[]; truncated: boolean; nextCursor: string };
    expect(first.rows).toHaveLength(50);
    expect(first.truncated).toBe(true);
    const second = (await call(client, 'sql', { cursor: first.nextCursor, max_rows: 1000 })).structuredContent as {
      rows: unknown[];
      truncated: boolean;
    };
    expect(second.truncated).toBe(false);
    expect([...first.rows, ...second.rows]).toEqual(await lkJson(bed, ['sql', query, '--db', mirror]));
  });

  it('every tool declares its outputSchema, and its answers fit it', async () => {
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(14);
    for (const tool of tools) expect(tool.outputSchema?.type, tool.name).toBe('object');
    // The SDK's client checks each structuredContent against the tool's outputSchema: one that did not fit would throw.
    expect((await call(client, 'calendar', {})).isError).toBeFalsy();
    expect((await call(client, 'stats', {})).isError).toBeFalsy();
    expect((await call(client, 'next_up', {})).isError).toBeFalsy();
    expect((await call(client, 'status', {})).isError).toBeFalsy();
  });
});

describeWithSqlite('lk mcp with long queries (in-process)', () => {
  let server: InProcessMcp;
  let client: Client;

  beforeAll(async () => {
    // No query process of an earlier server is left to be taken for one of these.
    await until(() => queryProcessesOf(process.pid).length === 0);
    server = mcpInProcess(bed, ['--db', mirror, '--timeout', '600']);
    client = await server.connect();
  });

  afterAll(async () => {
    server.stdin.end();
    expect(await server.exited).toBe(0);
  });

  it("notifications/cancelled ends that call's query process, frees its slot, and the server goes on answering", async () => {
    const cancel = new AbortController();
    const cancelled = call(client, 'sql', { query: RUNAWAY }, cancel.signal);
    await until(() => queryProcessesOf(process.pid).length === 1);
    const [pid] = queryProcessesOf(process.pid);
    cancel.abort('the user stopped it');
    await expect(cancelled).rejects.toThrow(/the user stopped it|abort/i);
    await until(() => !queryProcessesOf(process.pid).includes(pid!));
    expect((await call(client, 'sql', { query: 'SELECT count(*) AS n FROM entries' })).structuredContent!.rows).toEqual([{ n: ENTRIES }]);
  });

  it("two long queries hold both query processes; a third waits its turn, and lk's own reads answer meanwhile", async () => {
    const stops = [new AbortController(), new AbortController()];
    const long = stops.map((stop) => call(client, 'sql', { query: RUNAWAY }, stop.signal).catch((error: unknown) => error));
    await until(() => queryProcessesOf(process.pid).length === 2);
    let thirdAnswered = false;
    const third = call(client, 'sql', { query: 'SELECT 3 AS n' }).then((answer) => ((thirdAnswered = true), answer));
    const found = await call(client, 'search', { text: 'a' });
    expect(structured(found).total).toBeGreaterThan(0);
    expect((await call(client, 'get_entry', { id: String(structured(found).results[0]!.id) })).isError).toBeFalsy();
    expect((await call(client, 'stats', {})).isError).toBeFalsy();
    expect((await call(client, 'next_up', {})).isError).toBeFalsy();
    expect((await call(client, 'status', {})).isError).toBeFalsy();
    expect(thirdAnswered).toBe(false);
    expect(queryProcessesOf(process.pid)).toHaveLength(2);
    stops[0]!.abort();
    expect((await third).structuredContent!.rows).toEqual([{ n: 3 }]);
    stops[1]!.abort();
    await Promise.all(long);
    await until(() => queryProcessesOf(process.pid).length <= 1);
  });
});

describeWithSqlite('lk mcp and lines that are not JSON-RPC', () => {
  it('a line that is not JSON gets error -32700 with id null, one that is not JSON-RPC -32600, and the server goes on answering', async () => {
    const server = mcpInProcess(bed, ['--db', mirror]);
    const lines = linesOf(server.stdout);
    server.stdin.write('this is not json\n{"hello":"world"}\n');
    server.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })}\n`);
    await until(() => lines.length === 3);
    expect(lines.slice(0, 2)).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error/) as unknown } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/^Invalid Request/) as unknown } },
    ]);
    expect(lines[2]).toMatchObject({ id: 1, result: { tools: expect.any(Array) as unknown } });
    server.stdin.end();
    expect(await server.exited).toBe(0);
    expect(server.stderr()).toMatch(/^lk mcp: a line that is not JSON \(answered -32700\)$/m);
    for (const line of server.stderr().split('\n').filter(Boolean)) expect(line).toMatch(/^lk mcp: /);
  });
});

describeWithSqlite('lk mcp --tools', () => {
  it('serves only the tools named', async () => {
    const server = mcpInProcess(bed, ['--db', mirror, '--tools', 'search,get_entry']);
    const client = await server.connect();
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['search', 'get_entry']);
    // An unknown tool is a protocol error (-32602 Invalid params), as the MCP specification has it.
    await expect(call(client, 'sql', { query: 'SELECT 1' })).rejects.toThrow(/-32602.*no tool sql here; this server has search, get_entry/);
    server.stdin.end();
    expect(await server.exited).toBe(0);
  });
});

describe('lk mcp --tools at start', () => {
  it('an unknown name is exit 2 at start, naming it and the tools there are, before any answer', async () => {
    const result = await bed.lk(['mcp', '--db', mirror, '--tools', 'search,get_entries']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^lk: --tools: no tool named get_entries\n.*search, list_library, get_entry, history, stats, calendar, next_up, status, sql/,
    );
  });
});
