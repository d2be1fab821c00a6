import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { READINGS, type Reading } from '../../src/readings/table.js';
import type { TestBed } from '../e2e/harness.js';
import { describeWithSqlite } from '../support/sqlite-node.js';
import { syncedMirror } from '../support/synced-mirror.js';
import { call, mcpInProcess, type InProcessMcp } from './mcp-support.js';

// Issue 58: a new listing reading is one entry of src/readings/table.ts — no command module, no tool, no route
// written for it. Added here to the table itself, it is a command (online and --offline, its filters as flags, paged)
// and a tool of lk mcp, answering what the reading it copies answers.

const table = READINGS as Record<string, Reading>;

describeWithSqlite('a reading added to the table', () => {
  let bed: TestBed;
  let db: string;
  let mcp: InProcessMcp;
  let client: Client;

  beforeAll(async () => {
    table.things = { ...READINGS.reviews, about: 'Things reviewed', surfaces: { command: ['things'], offline: true, tool: 'list_things' } };
    ({ bed, db } = await syncedMirror(60, 'lk-added-'));
    mcp = mcpInProcess(bed, ['--db', db]);
    client = await mcp.connect();
  });

  afterAll(async () => {
    delete table.things;
    await client?.close();
    mcp?.stdin.end();
    await mcp?.exited;
    await bed?.sandbox.close();
  });

  const ids = (stdout: string) => (JSON.parse(stdout) as { id: unknown }[]).map((item) => item.id);

  it('is a command, online and --offline, with its filters and paging as flags', async () => {
    const reviews = await bed.lk(['reviews', '--all', '--json'], { key: 'full' });
    expect(reviews.code, reviews.stderr).toBe(0);
    const expected = ids(reviews.stdout);
    expect(expected.length).toBeGreaterThan(0);

    const online = await bed.lk(['things', '--all', '--json'], { key: 'full' });
    expect(online.code, online.stderr).toBe(0);
    expect(ids(online.stdout)).toEqual(expected);
    const offline = await bed.lk(['things', '--all', '--offline', '--db', db, '--json'], { key: null });
    expect(offline.code, offline.stderr).toBe(0);
    expect(ids(offline.stdout)).toEqual(expected);

    const help = await bed.lk(['things', '--help'], { key: null });
    expect(help.code).toBe(0);
    for (const flag of ['--domain <domain>', '--offline', '--db <file>', '--all', '--limit <n>']) expect(help.stdout).toContain(flag);
    // Its filter takes what the declaration allows, and refuses the rest before any request.
    const refused = await bed.lk(['things', '--domain', 'PAINTINGS'], { key: 'full' });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--domain/);
  });

  it('is a tool of lk mcp, page by page, answering the same items', async () => {
    const listed = await client.listTools();
    const tool = listed.tools.find((found) => found.name === 'list_things');
    expect(tool?.title).toBe('Things reviewed');
    expect(Object.keys(tool!.inputSchema.properties ?? {}).sort()).toEqual(['cursor', 'domain', 'limit']);
    const items: unknown[] = [];
    for (let cursor: string | undefined, first = true; first || cursor !== undefined; first = false) {
      const answer = await call(client, 'list_things', { limit: 7, ...(cursor === undefined ? {} : { cursor }) });
      expect(answer.isError, JSON.stringify(answer.content)).toBeFalsy();
      const content = answer.structuredContent as { results: { id: unknown }[]; nextCursor?: string };
      items.push(...content.results.map((item) => item.id));
      cursor = content.nextCursor;
    }
    const offline = await bed.lk(['reviews', '--all', '--offline', '--db', db, '--json'], { key: null });
    expect(items).toEqual(ids(offline.stdout));
  });
});
