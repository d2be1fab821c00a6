import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestBed, type TestBed } from '../e2e/harness.js';
import { tempDir } from '../support/temp-dir.js';
import { call as callTool, connectInProcess, lkJson } from './mcp-support.js';
import { describeWithSqlite, describeWithoutSqlite } from '../support/sqlite-node.js';

// Issue 37: lk mcp's next_up and status tools answer what lk next --offline and lk status --offline --json answer
// (the server in this process, on pipes).

describeWithoutSqlite(`on Node ${process.versions.node} (no node:sqlite)`, () => {
  it(`lk mcp (with next_up and status) exits 1 on Node ${process.versions.node}, naming Node 22.13`, async () => {
    const bed = await startTestBed({ entries: 10 });
    try {
      const result = await bed.lk(['mcp', '--db', join(tempDir('lk-mcp-next-'), 'none.db')]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^lk: lk mcp needs Node 22\.13 or later/);
    } finally {
      await bed.sandbox.close();
    }
  });
});

describeWithSqlite('lk mcp: next_up and status', () => {
  let bed: TestBed;
  let mirror: string;
  let client: Client;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    bed = await startTestBed({ entries: 80, rateLimit: 0, exportIntervalSeconds: 0 });
    mirror = join(tempDir('lk-mcp-next-'), 'mirror.db');
    expect((await bed.lk(['sync', '--db', mirror])).code).toBe(0);
    ({ client, close } = await connectInProcess(bed, ['--db', mirror]));
  });
  afterAll(async () => {
    await close?.();
    await bed.sandbox.close();
  });

  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const answer = await callTool(client, name, args);
    expect(answer.isError, JSON.stringify(answer)).toBeFalsy();
    return answer.structuredContent!;
  };
  const offline = async (args: string[]) => (await lkJson(bed, [...args, '--offline', '--db', mirror], { key: null })) as Record<string, unknown>[];

  it('next_up gives lk next, compact: no whole entry, its link, status and progress instead', async () => {
    const expected = await offline(['next', '--limit', '7']);
    const { items, total } = (await call('next_up', { limit: 7 })) as { items: Record<string, unknown>[]; total: number };
    expect(items.map(({ status: _s, progress: _p, link: _l, ...item }) => item)).toEqual(expected.map(({ entry: _entry, ...item }) => item));
    for (const [i, item] of items.entries()) {
      const entry = expected[i]!.entry as { url: string; status: string };
      expect(item).toMatchObject({ link: entry.url, status: entry.status });
      expect(item).not.toHaveProperty('entry');
    }
    expect(total).toBe((await offline(['next', '--all'])).length);
  });

  it("next_up links an entry without a page of its own to its work's, as lk next and list_library do (never null)", async () => {
    // A mirror whose entries carry no url of their own (the API may leave it out): the work's page is the link.
    const bare = join(tempDir('lk-mcp-next-'), 'mirror.db');
    expect((await bed.lk(['sync', '--db', bare])).code).toBe(0);
    const { DatabaseSync } = createRequire(import.meta.url)('node:sqlite') as {
      DatabaseSync: new (path: string) => { exec(sql: string): void; close(): void };
    };
    const db = new DatabaseSync(bare);
    db.exec("UPDATE entries SET json = json_remove(json, '$.url')");
    db.close();
    const { client: bareClient, close: closeBare } = await connectInProcess(bed, ['--db', bare]);
    try {
      const next = (await lkJson(bed, ['next', '--limit', '5', '--offline', '--db', bare], { key: null })) as {
        entry: { url?: string; work: { url: string } };
      }[];
      expect(next.length).toBeGreaterThan(0);
      expect(next.every(({ entry }) => entry.url === undefined)).toBe(true);
      const answer = (await callTool(bareClient, 'next_up', { limit: 5 })).structuredContent as { items: { id: string; link: string | null }[] };
      expect(answer.items.map((item) => item.link)).toEqual(next.map(({ entry }) => entry.work.url));
      const library = (await callTool(bareClient, 'list_library', { limit: 100 })).structuredContent as {
        results: { id: string; link: string | null }[];
      };
      const libraryLink = new Map(library.results.map((item) => [String(item.id), item.link]));
      for (const item of answer.items) expect(item.link, item.id).toBe(libraryLink.get(String(item.id)));
    } finally {
      await closeBare();
    }
  });

  it('next_up with random and a seed gives lk next --random --seed', async () => {
    const [expected] = await offline(['next', '--random', '--seed', '5']);
    const { items } = (await call('next_up', { random: true, seed: 5 })) as { items: { id: string }[] };
    expect(items.map((item) => item.id)).toEqual([expected!.id]);
  });

  it('status gives lk status --json (its counts, notifications and mirror)', async () => {
    const [expected] = [(await offline(['status'])) as unknown as Record<string, unknown>];
    const { status } = (await call('status')) as { status: Record<string, unknown> };
    for (const key of ['schemaVersion', 'inProgress', 'notifications', 'mirror']) expect(status[key]).toEqual(expected![key]);
  });
});
