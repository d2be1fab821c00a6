import { readdirSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readingTools } from '../../src/mcp/reading-tools.js';
import type { ToolCall } from '../../src/mcp/tool.js';
import { TOOL_NAMES } from '../../src/mcp/tool-names.js';
import { TOOLS } from '../../src/mcp/tools.js';
import { McpMirror } from '../../src/mcp/mirror.js';
import { entryTitleOf } from '../../src/items/entry.js';
import { VARIANTS } from '../../src/sandbox/variant.js';
import { READINGS, type Reading, type ReadingName } from '../../src/readings/table.js';
import { documentAt } from '../../src/serve/documents.js';
import type { RunResult, TestBed } from '../e2e/harness.js';
import { runOnOldNode } from '../support/old-node.js';
import { describeWithoutSqlite, describeWithSqlite } from '../support/sqlite-node.js';
import { syncedMirror } from '../support/synced-mirror.js';
import { until } from '../support/until.js';
import { call as callTool, mcpInProcess, type InProcessMcp } from './mcp-support.js';

// Issue 46: each reading of src/readings/table.ts, on every surface its entry names — its command online and
// --offline (after one lk sync), lk serve's route, lk mcp's tool — against one sandbox account: the same items in the
// same order with the same values, once each surface's own envelope is taken off. The test walks the table itself,
// so a reading added to it is run here on the surfaces it declares.

const ENTRIES = 250;
const table = Object.entries(READINGS) as [ReadingName, Reading][];

describe('the table and the surfaces', () => {
  it('every tool and route a reading names is served, and every tool of lk mcp but sql answers a reading', () => {
    const tools = new Set(TOOLS.map((tool) => tool.name));
    const named = new Set(table.map(([, reading]) => reading.surfaces.tool).filter((tool) => tool !== undefined));
    for (const tool of named) expect(tools, tool).toContain(tool);
    expect([...tools].filter((tool) => !named.has(tool))).toEqual(['sql']);
    for (const [, { surfaces }] of table) if (surfaces.route) expect(documentAt(surfaces.route), surfaces.route).toBeDefined();
    // lk mcp --tools knows them all before the server loads.
    expect([...TOOL_NAMES].sort()).toEqual([...tools].sort());
  });
});

describeWithoutSqlite('on a Node without node:sqlite', () => {
  it(`lk library --offline exits 1 on Node ${process.versions.node}, naming Node 22.13, and writes nothing`, async () => {
    const result = await runOnOldNode(['library', '--offline']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toMatch(/^lk: lk library --offline needs Node 22\.13 or later/);
    expect(readdirSync(result.dataDir)).toEqual([]);
  });
});

// Against both of the sandbox's variants: the alt one as another implementation of docs/api.md would answer (UUID ids,
// other field names, another export shape, privacy marked in other spellings).
for (const variant of VARIANTS)
  describeWithSqlite(`the readings on their surfaces (${variant} variant)`, () => {
    let bed: TestBed;
    let db: string;
    let dir: string;
    let serveUrl: string;
    let stopServe: () => Promise<RunResult>;
    let mcp: InProcessMcp;
    let client: Client;
    const ids: Record<string, string> = {};

    const env = () => ({ LK_DATA_DIR: dir });

    async function json(args: string[], key: string | null): Promise<unknown> {
      const result = await bed.lk([...args, '--json'], { key, env: env() });
      expect(result.code, `lk ${args.join(' ')}: ${result.stderr}`).toBe(0);
      return JSON.parse(result.stdout) as unknown;
    }

    beforeAll(async () => {
      ({ bed, db, dir } = await syncedMirror(ENTRIES, 'lk-readings-', variant));
      // The ids the readings of one entry or one list are asked for: the first of each listing.
      const [first] = (await json(['library', '--limit', '1'], 'full')) as { id: unknown }[];
      ids['library entry'] = String(first!.id);
      // A word of a title (in whichever spelling the variant sends it), for search: it finds that entry at least.
      ids.search = entryTitleOf(first)!
        .split(/[^\p{L}\p{N}]+/u)
        .find((word) => word.length >= 3)!;
      ids.list = String(((await json(['lists', '--limit', '1'], 'full')) as { id: unknown }[])[0]!.id);
      const abort = new AbortController();
      let stdout = '';
      const serving = bed.lk(['serve', '--port', '0', '--db', db], {
        key: null,
        env: env(),
        signal: abort.signal,
        onStdout: (text) => (stdout = text),
      });
      let ended: RunResult | undefined;
      void serving.then((result) => (ended = result));
      await until(() => stdout.includes('\n') || ended !== undefined);
      expect(ended?.stderr).toBeUndefined();
      serveUrl = stdout.split('\n')[0]!;
      stopServe = () => {
        abort.abort();
        return serving;
      };
      mcp = mcpInProcess(bed, ['--db', db]);
      client = await mcp.connect();
    });

    afterAll(async () => {
      await client?.close();
      mcp?.stdin.end();
      await mcp?.exited;
      if (stopServe) expect((await stopServe()).code).toBe(0);
      await bed?.sandbox.close();
    });

    /** The words and operands that ask a reading for everything it holds. */
    function argsOf(name: ReadingName, reading: Reading): string[] {
      const words = [...reading.surfaces.command];
      if (reading.kind !== 'composed' && reading.api?.id !== undefined) words.push(ids[reading.api.id]!);
      if (name === 'search') words.push(ids.search!);
      if (reading.kind === 'listing' && reading.paged) words.push('--all');
      if (name === 'next') words.push('--all');
      if (name === 'feed') words.push('--public');
      return words;
    }

    /** A surface's answer without its envelope: the items (one value as a list of one). */
    const itemsOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

    /** The reading's answer on its command: online unless `offline`. */
    async function onCommand(name: ReadingName, reading: Reading, offline: boolean): Promise<unknown[]> {
      const args = argsOf(name, reading);
      const mirrorOnly = reading.kind !== 'composed' ? reading.api === undefined : reading.mirrorOnly === true;
      const where = mirrorOnly ? ['--db', db] : offline ? ['--offline', '--db', db] : reading.surfaces.offline ? ['--db', db] : [];
      const answer = await json([...args, ...where], offline || mirrorOnly ? null : 'full');
      if (name === 'feed') return (answer as { items: unknown[] }).items;
      return itemsOf(answer);
    }

    async function onRoute(name: ReadingName, route: string): Promise<unknown[]> {
      const response = await fetch(new URL(name === 'next' ? `${route}?all` : route, serveUrl));
      expect(response.status, route).toBe(200);
      const answer = (await response.json()) as unknown;
      return name === 'feed' ? (answer as { items: unknown[] }).items : itemsOf(answer);
    }

    /** A tool's answer, every page of it (its cursor followed), without the envelope. */
    async function onTool(name: ReadingName, tool: string): Promise<unknown[]> {
      const args: Record<string, unknown> =
        {
          list_library: { limit: 200 },
          history: { limit: 200 },
          calendar: { limit: 200 },
          search: { text: ids.search, limit: 200 },
          get_entry: { id: ids['library entry'] },
          next_up: { limit: 100 },
        }[tool] ?? {};
      const items: unknown[] = [];
      for (let cursor: string | undefined, first = true; first || cursor !== undefined; first = false) {
        const answer = await callTool(client, tool, cursor === undefined ? args : { ...args, cursor });
        expect(answer.isError, JSON.stringify(answer.content)).toBeFalsy();
        const content = answer.structuredContent as Record<string, unknown>;
        cursor = content.nextCursor as string | undefined;
        if (tool === 'get_entry') items.push(...(name === 'entry' ? [(content.entry as { item: unknown }).item] : (content.history as unknown[])));
        else if (tool === 'stats') items.push(content.summary);
        else if (tool === 'status') items.push(content.status);
        else items.push(...((content.results ?? content.items) as unknown[]));
      }
      return items;
    }

    /** Notes (lk serve shows none) and long texts (lk mcp cuts them) are left out of what is compared. */
    const compared = (key: string, value: unknown) =>
      !['notes', 'note', 'generatedAt'].includes(key) && (value === null || typeof value !== 'string' || value.length < 200);

    /** Each item's values of one value (strings, numbers, booleans, null), and objects whole, as the reference gives them. */
    function sameItems(surface: string, got: unknown[], reference: unknown[], whole: boolean): void {
      expect(got.length, `${surface}: as many items`).toBe(reference.length);
      for (const [index, item] of reference.entries()) {
        const fields = Object.entries(item as Record<string, unknown>).filter(
          ([key, value]) => compared(key, value) && (whole || value === null || typeof value !== 'object'),
        );
        // lk mcp gives an item's page as `link` (its own url, else its work's) in place of `url`.
        const own = got[index] as Record<string, unknown>;
        const picked = Object.fromEntries(fields.map(([key]) => [key, key === 'url' && !('url' in own) ? own.link : own[key]]));
        expect(picked, `${surface}: item ${index + 1}`).toEqual(Object.fromEntries(fields));
      }
    }

    describe('every reading of the table, on every surface it names', () => {
      // A reading with no command (the taste profile, lk mcp's alone) has no reference to compare: mcp-directories.test.ts.
      for (const [name, reading] of table.filter(([, { surfaces }]) => surfaces.command.length > 0)) {
        const { surfaces } = reading;
        const mirrorOnly = reading.kind !== 'composed' ? reading.api === undefined : reading.mirrorOnly === true;
        // The alt server's export keeps other field names than its pages (src/sandbox/variant.ts), and the mirror holds
        // the export's items as they came: there the mirror's surfaces (--offline, serve, mcp) are compared with one
        // another, the command --offline the reference; a reading no command gives offline has no such reference.
        const fromMirror = variant !== 'default' && !mirrorOnly;
        if (fromMirror && !surfaces.offline) continue;
        it(`${name}: lk ${surfaces.command.join(' ')}${surfaces.offline && !mirrorOnly ? ', --offline' : ''}${surfaces.route ? `, ${surfaces.route}` : ''}${surfaces.tool ? `, the ${surfaces.tool} tool` : ''}`, async () => {
          const reference = await onCommand(name, reading, fromMirror);
          expect(reference.length, `${name} answers something`).toBeGreaterThan(0);
          // A value the server gives whole (an entry, the stats) is compared whole; items by their values of one value.
          const whole = reading.kind === 'single' || name === 'status';
          if (surfaces.offline && !mirrorOnly && !fromMirror) sameItems(`${name} --offline`, await onCommand(name, reading, true), reference, whole);
          if (surfaces.route) sameItems(`${name} at ${surfaces.route}`, await onRoute(name, surfaces.route), reference, whole);
          if (surfaces.tool) sameItems(`${name} by ${surfaces.tool}`, await onTool(name, surfaces.tool), reference, whole);
        });
      }
    });

    it('a reading added to the table with a tool of its own is served by lk mcp, answering its mirror items page by page', async () => {
      const written = new Set(TOOLS.map((tool) => tool.name));
      const things: Reading = { ...READINGS.reviews, about: 'Reviews again', surfaces: { command: ['reviews'], offline: true, tool: 'list_things' } };
      const made = readingTools({ ...READINGS, things }, written).find((tool) => tool.name === 'list_things');
      expect(made?.title).toBe('Reviews again');
      expect(Object.keys(made!.input.shape).sort()).toEqual(['cursor', 'domain', 'limit']);
      // Its call as lk mcp makes it (mcp/index.ts), on the synced mirror: a page of 7, then the rest from the cursor.
      // The server's own mirror for the tools (mcp/mirror.ts), on the synced mirror.
      const mirror = new McpMirror({ mirrorPath: db, now: () => Date.now(), timeoutSeconds: 30, fallbackTimeZone: 'UTC', live: undefined });
      try {
        const call = (offset: number): ToolCall =>
          ({
            host: { now: () => Date.now() },
            mirror,
            signal: new AbortController().signal,
            offset,
            cursorAt: (at: number) => `at-${at}`,
          }) as unknown as ToolCall;
        const first = (await made!.run(made!.input.parse({ limit: 7 }), call(0))) as { results: { id: unknown }[]; nextCursor?: string };
        expect(first.results).toHaveLength(7);
        expect(first.nextCursor).toBe('at-7');
        const rest = (await made!.run(made!.input.parse({ limit: 200 }), call(7))) as { results: { id: unknown }[]; nextCursor?: string };
        expect(rest.nextCursor).toBeUndefined();
        const reviews = (await json(['reviews', '--all', '--offline', '--db', db], null)) as { id: unknown }[];
        expect([...first.results, ...rest.results].map((item) => item.id)).toEqual(reviews.map((review) => review.id));
      } finally {
        mirror.close();
      }
    });

    it('next_up links each entry as lk next does: its page, else its work’s (one item view)', async () => {
      const next = (await json(['next', '--all', '--offline', '--db', db], null)) as {
        id: string;
        entry: { url?: string; work?: { url?: string } };
      }[];
      const tool = (await onTool('next', 'next_up')) as { id: string; link: string | null }[];
      expect(tool.map((item) => item.link)).toEqual(next.map(({ entry }) => entry.url ?? entry.work?.url ?? null));
    });

    it('/next.json answers lk next’s default (20), ?limit=N as --limit N, and refuses a bad limit (400)', async () => {
      const answer = async (query: string) => {
        const response = await fetch(new URL(`/next.json${query}`, serveUrl));
        return { status: response.status, body: await response.text() };
      };
      const ids = (text: string) => (JSON.parse(text) as { id: string }[]).map((item) => item.id);
      const byDefault = await answer('');
      const command = (await json(['next', '--offline', '--db', db], null)) as { id: string }[];
      expect(command).toHaveLength(20);
      const inProgress = ((await json(['next', '--all', '--offline', '--db', db], null)) as unknown[]).length;
      expect(inProgress).toBeGreaterThan(20);
      expect(ids(byDefault.body)).toEqual(command.map((item) => item.id));
      const five = await answer('?limit=5');
      expect(ids(five.body)).toEqual(command.slice(0, 5).map((item) => item.id));
      // Forty other limits answered (each kept a while): the default is still the command's.
      for (let limit = 1; limit <= 40; limit += 1) expect(ids((await answer(`?limit=${limit}`)).body)).toHaveLength(Math.min(limit, inProgress));
      expect((await answer('')).body).toBe(byDefault.body);
      for (const bad of ['?limit=0', '?limit=x', '?limit=5&all']) {
        const refused = await answer(bad);
        expect(refused.status, bad).toBe(400);
        expect(refused.body).toMatch(/limit/);
      }
    });

    it("next's limit has one range on every surface: 100 answered alike by lk next --limit, /next.json?limit and next_up; 0 and 101 refused by each", async () => {
      const ids = (items: { id: string }[]) => items.map((item) => item.id);
      const command = (limit: number) => bed.lk(['next', '--limit', String(limit), '--json', '--offline', '--db', db], { key: null, env: env() });
      const route = async (limit: number) => {
        const response = await fetch(new URL(`/next.json?limit=${limit}`, serveUrl));
        return { status: response.status, body: await response.text() };
      };
      const tool = (limit: number) => callTool(client, 'next_up', { limit });

      const onCommand = await command(100);
      expect(onCommand.code, onCommand.stderr).toBe(0);
      const most = ids(JSON.parse(onCommand.stdout) as { id: string }[]);
      expect(most.length).toBeGreaterThan(20);
      const onRoute = await route(100);
      expect(onRoute.status).toBe(200);
      expect(ids(JSON.parse(onRoute.body) as { id: string }[])).toEqual(most);
      const onTool = await tool(100);
      expect(onTool.isError, JSON.stringify(onTool.content)).toBeFalsy();
      expect(ids((onTool.structuredContent as { items: { id: string }[] }).items)).toEqual(most);

      for (const past of [0, 101]) {
        const refused = await command(past);
        expect(refused.code, String(past)).toBe(2);
        expect(refused.stdout).toBe('');
        expect(refused.stderr).toBe(`lk: invalid --limit "${past}": expected a whole number from 1 to 100\n`);
        expect(await route(past)).toEqual({ status: 400, body: `invalid ?limit "${past}": expected a whole number from 1 to 100\n` });
        const answer = await tool(past);
        expect(answer.isError, String(past)).toBe(true);
        expect(JSON.stringify(answer.content)).toMatch(/limit/);
      }
    });
  });
