import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBed, type TestBed } from '../e2e/harness.js';
import { tempDir } from '../support/temp-dir.js';
import { call, connectInProcess, lkJson, type ToolAnswer } from './mcp-support.js';
import { describeWithSqlite, describeWithoutSqlite, hasSqlite } from '../support/sqlite-node.js';

// `lk mcp`'s tools as an assistant calls them, with the SDK's own client, the server run in this process on pipes (its
// stdio as a process: mcp-process.test.ts). Its answers are checked against lk sql, lk search and lk library --offline
// over the same mirror.

let bed: TestBed;
let dataDir: string;
let mirror: string;

beforeAll(async () => {
  bed = await startTestBed({ entries: 60, rateLimit: 0, exportIntervalSeconds: 0 });
  dataDir = tempDir('lk-mcp-');
  mirror = join(dataDir, 'mirror.db');
  if (hasSqlite) expect((await bed.lk(['sync', '--db', mirror], { env: { LK_CACHE_DIR: join(dataDir, 'cache') } })).code).toBe(0);
});

afterAll(async () => {
  await bed.sandbox.close();
});

type Item = Record<string, unknown>;
const results = (answer: ToolAnswer) => answer.structuredContent!.results as Item[];
const ids = (list: Item[]) => list.map((item) => String(item.id));

/** Each result is the compact form of the item lk prints whole, in the same order: its own values, its link. */
function expectCompactOf(found: Item[], whole: Item[]): void {
  expect(ids(found)).toEqual(ids(whole));
  found.forEach((result, index) => {
    const item = whole[index]!;
    for (const [name, value] of Object.entries(item))
      if (name !== 'url' && (value === null || typeof value !== 'object')) expect(result[name], name).toEqual(value);
    expect(result.link).toBe(item.url ?? (item.work as Item | undefined)?.url ?? null);
  });
}

describeWithoutSqlite(`on Node ${process.versions.node} (no node:sqlite)`, () => {
  it('lk mcp exits 1 with one line naming Node 22.13, and writes nothing on stdout', async () => {
    const result = await bed.lk(['mcp', '--db', mirror]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toMatch(/^lk: lk mcp needs Node 22\.13 or later/);
  });
});

describeWithSqlite('lk mcp on a synced mirror', () => {
  describe('lk mcp and its tools', () => {
    let client: Client;
    let stderr: () => string;
    let close: () => Promise<void>;

    beforeAll(async () => {
      ({ client, stderr, close } = await connectInProcess(bed, ['--db', mirror]));
    });

    afterAll(async () => {
      await close();
    });

    it('initializes as lk with tools, and lists each tool with an input and an output schema and an example', async () => {
      expect(client.getServerVersion()?.name).toBe('lk');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([
        'calendar',
        'get_entry',
        'history',
        'list_achievements',
        'list_library',
        'list_lists',
        'list_notifications',
        'list_reviews',
        'next_up',
        'recommend',
        'search',
        'sql',
        'stats',
        'status',
      ]);
      for (const tool of tools) {
        expect(tool.inputSchema.type).toBe('object');
        expect(tool.outputSchema?.type).toBe('object');
        expect(tool.description).toMatch(/Example/);
        expect(tool.annotations?.readOnlyHint).toBe(true);
      }
      const search = tools.find((tool) => tool.name === 'search')!;
      expect(search.inputSchema.required).toEqual(['text']);
    });

    it('search gives what lk search gives, each result with its web page', async () => {
      const [first] = (await lkJson(bed, ['library', '--offline', '--db', mirror, '--limit', '1'])) as { work: { title: string } }[];
      const word = first!.work.title.split(/\s+/)[0]!;
      const answer = await call(client, 'search', { text: word, limit: 50 });
      expect(answer.isError).toBeFalsy();
      expectCompactOf(results(answer), (await lkJson(bed, ['search', word, '--db', mirror, '--limit', '50'])) as Item[]);
      expect(results(answer).length).toBeGreaterThan(0);
      expect(JSON.parse(answer.content[0]!.text)).toEqual(answer.structuredContent);
    });

    it('list_library gives what lk library --offline gives, with the same filters and sort, page after page', async () => {
      const first = await call(client, 'list_library', { phase: 'DONE', sort: 'rating', limit: 3 });
      const answer = await call(client, 'list_library', { cursor: first.structuredContent!.nextCursor, limit: 7 });
      const all = (await lkJson(bed, ['library', '--offline', '--db', mirror, '--phase', 'DONE', '--sort', 'rating', '--all'])) as Item[];
      expectCompactOf(results(answer), all.slice(3, 10));
      expect(answer.structuredContent!.total).toBe(all.length);
    });

    it('list_library filters by rating, status and finish date as lk sql counts them', async () => {
      const answer = await call(client, 'list_library', { min_rating: 7, finished_from: '2000-01-01', limit: 200 });
      const expected = (await lkJson(bed, [
        'sql',
        "SELECT id FROM entries WHERE rating >= 7 AND finished_at >= '2000-01-01' ORDER BY position",
        '--db',
        mirror,
      ])) as { id: string }[];
      expect(ids(results(answer))).toEqual(expected.map((row) => String(row.id)));
      const [row] = (await lkJson(bed, [
        'sql',
        'SELECT status, count(*) AS n FROM entries GROUP BY status ORDER BY n DESC LIMIT 1',
        '--db',
        mirror,
      ])) as {
        status: string;
        n: number;
      }[];
      expect((await call(client, 'list_library', { status: row!.status.toLowerCase(), limit: 1 })).structuredContent!.total).toBe(row!.n);
    });

    it('get_entry gives the entry lk library --offline shows, with its history', async () => {
      const [entry] = (await lkJson(bed, ['library', '--offline', '--db', mirror, '--limit', '1'])) as { id: string | number }[];
      const answer = await call(client, 'get_entry', { id: String(entry!.id) });
      expect(answer.structuredContent!.entry).toMatchObject({ item: entry });
      const events = (await lkJson(bed, ['sql', `SELECT id FROM history WHERE entry_id = '${String(entry!.id)}'`, '--db', mirror])) as unknown[];
      expect((answer.structuredContent!.history as unknown[]).length).toBe(events.length);
      expect(events.length).toBeGreaterThan(0);
    });

    it('history gives what lk history --offline gives in the same window', async () => {
      const answer = await call(client, 'history', { from: '2000-01-01', to: '2100-12-31', limit: 30 });
      expectCompactOf(
        results(answer),
        (await lkJson(bed, ['history', '--offline', '--db', mirror, '--from', '2000-01-01', '--to', '2100-12-31', '--limit', '30'])) as Item[],
      );
      expect(results(answer)).toHaveLength(30);
    });

    it('stats gives the figures lk report --json gives for the same days, and the summary lk stats --offline gives', async () => {
      const to = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
      const answer = await call(client, 'stats', { from: '2000-01-01', to });
      // Cut to the years that hold data (issue 57), and said: the figures are lk report's for those days.
      const { period } = answer.structuredContent!.figures as { period: { from: string; to: string } };
      expect(period.to).toBe(to);
      expect(period.from).toMatch(/^20[12]\d-01-01$/);
      const first = (await lkJson(bed, ['sql', 'SELECT min(date) AS first FROM history', '--db', mirror])) as { first: string }[];
      expect(period.from).toBe(`${first[0]!.first.slice(0, 4)}-01-01`);
      const report = (await lkJson(bed, ['report', '--from', period.from, '--to', to, '--db', mirror])) as { total: { events: number } };
      expect(answer.structuredContent!.figures).toEqual(report);
      expect(report.total.events).toBeGreaterThan(0);
      expect(answer.structuredContent!.summary).toEqual(await lkJson(bed, ['stats', '--offline', '--db', mirror]));
    });

    it('stats refuses a year and days together as a tool error, as lk report does', async () => {
      const answer = await call(client, 'stats', { year: 2025, from: '2025-03-01' });
      expect(answer.isError).toBe(true);
      expect(answer.content[0]!.text).toMatch(/--year or --from\/--to, not both/);
    });

    it('calendar gives what lk calendar --offline gives', async () => {
      const answer = await call(client, 'calendar', { limit: 200 });
      expectCompactOf(results(answer), (await lkJson(bed, ['calendar', '--offline', '--db', mirror])) as Item[]);
      expect(results(answer).length).toBeGreaterThan(0);
    });

    it('sql gives the rows lk sql gives', async () => {
      const query = 'SELECT phase, count(*) AS n, avg(rating) AS mean FROM entries GROUP BY phase ORDER BY phase';
      const answer = await call(client, 'sql', { query });
      expect(answer.structuredContent).toMatchObject({ columns: ['phase', 'n', 'mean'], truncated: false });
      expect(answer.structuredContent!.rows).toEqual(await lkJson(bed, ['sql', query, '--db', mirror]));
    });

    it('sql keeps within max_rows and says the answer was truncated', async () => {
      const answer = await call(client, 'sql', { query: 'SELECT id FROM entries', max_rows: 5 });
      expect(answer.structuredContent).toMatchObject({ truncated: true, nextCursor: expect.any(String) as unknown });
      expect(answer.structuredContent!.rows).toHaveLength(5);
    });

    it('sql keeps an answer within 256 KB, whatever max_rows allows', async () => {
      const answer = await call(client, 'sql', { query: "SELECT id, printf('%.*c', 100000, 'x') AS big FROM entries", max_rows: 1000 });
      expect(answer.structuredContent).toMatchObject({ truncated: true, nextCursor: expect.any(String) as unknown });
      expect((answer.structuredContent!.rows as unknown[]).length).toBe(2);
      expect(Buffer.byteLength(JSON.stringify(answer.structuredContent!.rows))).toBeLessThanOrEqual(256 * 1024);
    });

    it('sends no request to the API without --live, whichever tool is called', async () => {
      bed.sandbox.resetCounters();
      const [entry] = (await lkJson(bed, ['library', '--offline', '--db', mirror, '--limit', '1'])) as { id: string | number }[];
      for (const [name, args] of [
        ['search', { text: 'the' }],
        ['list_library', {}],
        ['get_entry', { id: String(entry!.id) }],
        ['history', {}],
        ['stats', {}],
        ['calendar', {}],
        ['sql', { query: 'SELECT 1' }],
      ] as const)
        expect((await call(client, name, args)).isError, name).toBeFalsy();
      expect(bed.sandbox.counters.requests).toBe(0);
    });

    for (const write of [
      "ATTACH 'elsewhere.db' AS other",
      'CREATE TEMP TABLE t(x)',
      'PRAGMA user_version = 9',
      "VACUUM INTO 'copy.db'",
      'DELETE FROM entries',
    ]) {
      it(`sql refuses a write as a tool error: ${write}`, async () => {
        const answer = await call(client, 'sql', { query: write });
        expect(answer.isError).toBe(true);
        expect(answer.content[0]!.text).toMatch(/^(not a read: .+|attempt to write a readonly database)$/);
      });
    }

    it('bad input is a tool error naming the field, and the server goes on answering', async () => {
      const answer = await call(client, 'list_library', { limit: 0, domain: 'FILMS' });
      expect(answer.isError).toBe(true);
      expect(answer.content[0]!.text).toMatch(/limit/);
      expect(answer.content[0]!.text).toMatch(/domain/);
      expect((await call(client, 'get_entry', { id: 'no-such-entry' })).content[0]!.text).toMatch(/no library entry no-such-entry in the mirror/);
      expect((await call(client, 'stats')).isError).toBeFalsy();
    });

    it('logs on stderr without the key', () => {
      expect(stderr()).toMatch(/lk mcp: serving .*mirror\.db on stdio, read-only/);
      expect(stderr()).not.toContain(bed.env().LK_API_KEY!);
    });
  });

  describe('lk mcp --timeout', () => {
    it('stops a query that runs longer, as a tool error naming --timeout, and goes on answering', async () => {
      const { client, close } = await connectInProcess(bed, ['--db', mirror, '--timeout', '1']);
      try {
        const runaway = await call(client, 'sql', {
          query: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) AS n FROM c',
        });
        expect(runaway.isError).toBe(true);
        expect(runaway.content[0]!.text).toMatch(/the query on the mirror ran longer than 1s \(--timeout\) and was stopped/);
        expect((await call(client, 'sql', { query: 'SELECT count(*) AS n FROM entries' })).structuredContent!.rows).toEqual([{ n: 60 }]);
      } finally {
        await close();
      }
    });
  });

  describe('lk mcp --live', () => {
    it("get_entry, stats and calendar answer with the API's data, as lk library show, lk stats and lk calendar print it, and never the key", async () => {
      const { client, stderr, close } = await connectInProcess(bed, ['--db', mirror, '--live']);
      try {
        const [entry] = (await lkJson(bed, ['library', '--limit', '1'])) as { id: string | number }[];
        bed.sandbox.rateEntry(bed.sandbox.keys.find((key) => key.name === 'full')!.account, String(entry!.id), 3);
        const got = await call(client, 'get_entry', { id: String(entry!.id) });
        expect(got.structuredContent).toMatchObject({ source: 'api', entry: { item: await lkJson(bed, ['library', 'show', String(entry!.id)]) } });
        expect((got.structuredContent!.entry as { item: { rating: number } }).item.rating).toBe(3);
        expect((await call(client, 'stats')).structuredContent).toMatchObject({ source: 'api', summary: await lkJson(bed, ['stats']) });
        expectCompactOf(results(await call(client, 'calendar', { limit: 200 })), (await lkJson(bed, ['calendar'])) as Item[]);
        const key = bed.env().LK_API_KEY!;
        expect(JSON.stringify(got)).not.toContain(key);
        expect(stderr()).not.toContain(key);
        expect(stderr()).toContain('with API reads (--live)');
      } finally {
        await close();
      }
    });
  });

  describe('lk mcp --live, an entry with more than 100 events', () => {
    // Issue 58: get_entry --live read one page of 100 of the entry's history and lost the rest.
    it('get_entry gives its whole history, page after page, as lk library history --all prints it', async () => {
      const long = await startTestBed({ entries: 3, rateLimit: 0 });
      const { client, close } = await connectInProcess(long, ['--db', join(tempDir('lk-mcp-long-'), 'none.db'), '--live']);
      try {
        const account = long.sandbox.keys.find((key) => key.name === 'full')!.account;
        const id = long.sandbox.entryIds(account)[0]!;
        for (let n = 0; n < 130; n++) long.sandbox.addEvent(account, id);
        const whole = (await lkJson(long, ['library', 'history', id, '--all'])) as Item[];
        expect(whole.length).toBeGreaterThan(130);
        const got = await call(client, 'get_entry', { id });
        expect(got.isError).toBeFalsy();
        expect(got.structuredContent).toMatchObject({ source: 'api' });
        expect(ids(got.structuredContent!.history as Item[])).toEqual(ids(whole));
      } finally {
        await close();
        await long.sandbox.close();
      }
    });
  });

  describe('lk mcp --live without a mirror', () => {
    it('the calendar is read from the API alone: no mirror is opened for it', async () => {
      const { client, close } = await connectInProcess(bed, ['--db', join(dataDir, 'none.db'), '--live']);
      try {
        const answer = await call(client, 'calendar', { limit: 200 });
        expect(answer.isError).toBeFalsy();
        expect(answer.structuredContent).toMatchObject({ source: 'api' });
        expectCompactOf(results(answer), (await lkJson(bed, ['calendar'])) as Item[]);
      } finally {
        await close();
      }
    });
  });

  describe('lk mcp without a mirror', () => {
    it('answers each tool with an error naming lk sync', async () => {
      const { client, close } = await connectInProcess(bed, ['--db', join(dataDir, 'none.db')]);
      try {
        const answer = await call(client, 'search', { text: 'dune' });
        expect(answer.isError).toBe(true);
        expect(answer.content[0]!.text).toMatch(/no mirror at .*none\.db.*lk sync/);
      } finally {
        await close();
      }
    });
  });
});
