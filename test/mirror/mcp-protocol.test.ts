import { join } from 'node:path';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openForWriting } from '../../src/mirror/open.js';
import { startTestBed, type TestBed } from '../e2e/harness.js';
import { tempDir } from '../support/temp-dir.js';
import { RUNAWAY } from '../support/synced-mirror.js';
import { until } from '../support/until.js';
import { connectInProcess, linesOf, lkJson, mcpInProcess, pipeTransport, queryProcessesOf } from './mcp-support.js';
import { describeWithSqlite, hasSqlite } from '../support/sqlite-node.js';

// Issue 49: lk mcp on both revisions of the protocol, with resources, templates, completion and prompts, spoken to by
// clients nobody here wrote: the v1 SDK's (2025-11-25, the initialize handshake) and the v2 SDK's in `auto` mode,
// which probes server/discover and must settle on 2026-07-28 without falling back. Their answers are lk's own:
// lk status --json --offline, lk library show, lk report --json, lk sql --schema over the same mirror. The server runs
// in this process on pipes; each revision over a real lk mcp's stdio: mcp-process.test.ts (2025-11-25) and
// mcp-process-2026.test.ts (2026-07-28).

const ENTRIES = 130;
let bed: TestBed;
let mirror: string;
/** An entry whose work is retitled with an accent, for completion to find without it. */
let accented: string;

beforeAll(async () => {
  bed = await startTestBed({ entries: ENTRIES, rateLimit: 0, exportIntervalSeconds: 0 });
  mirror = join(tempDir('lk-mcp-protocol-'), 'mirror.db');
  if (!hasSqlite) return;
  expect((await bed.lk(['sync', '--db', mirror])).code).toBe(0);
  const db = openForWriting(mirror);
  accented = String(db.prepare('SELECT id FROM entries ORDER BY position LIMIT 1').get()!.id);
  db.prepare("UPDATE works SET title = 'Émilie et les étoiles' WHERE id = (SELECT work_id FROM entries WHERE id = ?)").run(accented);
  db.close();
});

afterAll(async () => {
  await bed.sandbox.close();
});

/** What both SDKs' clients offer, as these tests use it. */
type AnyClient = Pick<
  V2Client,
  'listResources' | 'listResourceTemplates' | 'readResource' | 'complete' | 'listPrompts' | 'getPrompt' | 'callTool' | 'close'
>;

interface Connected {
  client: AnyClient;
  /** Closes the client and the server's stdin; the server exits 0. */
  close(): Promise<void>;
}

async function v2Auto(): Promise<Connected & { version: string | undefined; discovered: string[] | undefined }> {
  const server = mcpInProcess(bed, ['--db', mirror]);
  const client = new V2Client({ name: 'lk-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(pipeTransport(server.stdout, server.stdin) as Parameters<V2Client['connect']>[0]);
  return {
    client,
    version: client.getNegotiatedProtocolVersion(),
    discovered: client.getDiscoverResult()?.supportedVersions,
    async close() {
      await client.close();
      server.stdin.end();
      expect(await server.exited).toBe(0);
    },
  };
}

async function v1Legacy(): Promise<Connected> {
  const { client, close } = await connectInProcess(bed, ['--db', mirror]);
  return { client: client as unknown as AnyClient, close };
}

const text = (result: { contents: object[] }) => JSON.parse((result.contents[0] as { text: string }).text) as unknown;

describeWithSqlite('lk mcp on both revisions of the protocol', () => {
  it('the v2 client in auto mode settles on 2026-07-28 with no fallback; server/discover names 2025-11-25 too', async () => {
    const { version, discovered, close } = await v2Auto();
    try {
      expect(version).toBe('2026-07-28');
      expect(discovered).toEqual(expect.arrayContaining(['2026-07-28', '2025-11-25']));
    } finally {
      await close();
    }
  });

  describe.each([
    ['the v1 SDK client (2025-11-25)', v1Legacy],
    ['the v2 client in auto mode (2026-07-28)', v2Auto],
  ])('resources and prompts, to %s', (_name, connect) => {
    let client: AnyClient;
    let close: () => Promise<void>;

    beforeAll(async () => {
      ({ client, close } = await connect());
    });
    afterAll(async () => {
      await close();
    });

    it('lists lk://status and lk://schema, and the templates lk://entry/{id} and lk://report/{year}', async () => {
      expect((await client.listResources()).resources.map((resource) => resource.uri).sort()).toEqual(['lk://schema', 'lk://status']);
      expect((await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate).sort()).toEqual([
        'lk://entry/{id}',
        'lk://report/{year}',
      ]);
    });

    it('lk://status is what lk status --json --offline prints', async () => {
      const status = text(await client.readResource({ uri: 'lk://status' })) as Record<string, unknown>;
      const printed = (await lkJson(bed, ['status', '--offline', '--db', mirror])) as Record<string, unknown>;
      expect(status).toEqual(printed);
    });

    it('lk://entry/{id} is the entry and its history as the API gives them; an unknown id is resource-not-found (-32602 with its uri)', async () => {
      const [second] = (await lkJson(bed, ['library', '--offline', '--db', mirror, '--limit', '1', '--page', '2'])) as { id: string }[];
      const read = text(await client.readResource({ uri: `lk://entry/${second!.id}` })) as { entry: unknown; history: { id: string }[] };
      expect(Object.keys(read)).toEqual(['entry', 'history']);
      expect(read.entry).toEqual(await lkJson(bed, ['library', 'show', second!.id]));
      // The events the API lists for the entry, in its order (the undated last); the mirror keeps each as the export
      // sent it (its work by id), so the events are compared by id.
      const history = (await lkJson(bed, ['library', 'history', second!.id, '--all'])) as { id: string }[];
      expect(read.history.map((event) => event.id)).toEqual(history.map((event) => event.id));
      expect(history.length).toBeGreaterThan(0);
      // -32602 with the uri as data: the 2026-07-28 revision's resource-not-found, which the SDK sends on both eras.
      await expect(client.readResource({ uri: 'lk://entry/no-such-entry' })).rejects.toMatchObject({
        code: -32602,
        data: { uri: 'lk://entry/no-such-entry' },
        message: expect.stringContaining('no library entry no-such-entry'),
      });
    });

    it('lk://report/{year} is what lk report --json --year prints; {year} completes to the years with dated history', async () => {
      const { completion } = await client.complete({
        ref: { type: 'ref/resource', uri: 'lk://report/{year}' },
        argument: { name: 'year', value: '' },
      });
      expect(completion.values.length).toBeGreaterThan(0);
      for (const year of completion.values) expect(year).toMatch(/^\d{4}$/);
      const year = completion.values[0]!;
      const report = text(await client.readResource({ uri: `lk://report/${year}` }));
      expect(report).toEqual(await lkJson(bed, ['report', '--year', year, '--db', mirror]));
      const none = await client.complete({ ref: { type: 'ref/resource', uri: 'lk://report/{year}' }, argument: { name: 'year', value: '1901' } });
      expect(none.completion.values).toEqual([]);
    });

    it('lk://schema names every table and view lk sql --schema lists, the full-text ones too, with their columns', async () => {
      const { tables } = text(await client.readResource({ uri: 'lk://schema' })) as {
        tables: { name: string; kind: string; columns: { name: string }[] }[];
      };
      const schema = (await bed.lk(['sql', '--schema', '--db', mirror])).stdout;
      const listed = [...schema.matchAll(/CREATE (?:VIRTUAL )?(?:TABLE|VIEW) (?:IF NOT EXISTS )?"?(\w+)/g)].map((match) => match[1]);
      expect(tables.map((table) => table.name).sort()).toEqual(listed.sort());
      expect(tables.find((table) => table.name === 'works_fts')).toMatchObject({
        kind: 'virtual table',
        columns: [{ name: 'title' }, { name: 'original_title' }],
      });
      expect(tables.find((table) => table.name === 'entries')!.columns.map((column) => column.name)).toContain('rating');
    });

    it('{id} completes by title prefix, case and accents ignored, and by id prefix: at most 100 values, with total and hasMore', async () => {
      const ref = { type: 'ref/resource' as const, uri: 'lk://entry/{id}' };
      const all = await client.complete({ ref, argument: { name: 'id', value: '' } });
      expect(all.completion).toMatchObject({ total: ENTRIES, hasMore: true });
      expect(all.completion.values).toHaveLength(100);
      const byTitle = await client.complete({ ref, argument: { name: 'id', value: 'EMILIE ET' } });
      expect(byTitle.completion.values).toEqual([accented]);
      const byId = await client.complete({ ref, argument: { name: 'id', value: accented } });
      expect(byId.completion.values).toContain(accented);
    });

    it('list_library, search, next_up and history carry a resource_link per entry', async () => {
      const library = await client.callTool({ name: 'list_library', arguments: { limit: 5 } });
      const ids = (library.structuredContent as { results: { id: string }[] }).results.map((result) => result.id);
      const links = (library.content as { type: string; uri?: string }[]).filter((block) => block.type === 'resource_link');
      expect(links.map((link) => link.uri)).toEqual(ids.map((id) => `lk://entry/${id}`));
      for (const [name, args] of [
        ['search', { text: 'the' }],
        ['next_up', {}],
        ['history', { limit: 20 }],
      ] as const) {
        const answer = await client.callTool({ name, arguments: args });
        const blocks = answer.content as { type: string; uri?: string }[];
        expect(blocks[0]!.type).toBe('text');
        const uris = blocks.filter((block) => block.type === 'resource_link').map((block) => block.uri);
        expect(uris.length, name).toBeGreaterThan(0);
        expect(new Set(uris).size).toBe(uris.length);
        for (const uri of uris) expect(uri).toMatch(/^lk:\/\/entry\/./);
      }
    });

    it('lists the prompts tonight, catch-up and year-in-review', async () => {
      expect((await client.listPrompts()).prompts.map((prompt) => prompt.name).sort()).toEqual([
        'catch-up',
        'recommend',
        'tonight',
        'year-in-review',
      ]);
    });

    it('tonight {domain} keeps both its picks in that domain, from lk next', async () => {
      const prompt = await client.getPrompt({ name: 'tonight', arguments: { domain: 'BOOKS' } });
      const message = prompt.messages[0]!.content as { type: string; text: string };
      const data = JSON.parse(message.text.slice(message.text.indexOf('\n\n'))) as {
        inProgress: { id: string; domain: string }[];
        randomPlannedPick: { domain: string } | null;
      };
      const next = (await lkJson(bed, ['next', '--offline', '--db', mirror, '--domain', 'BOOKS', '--limit', '10'])) as { id: string }[];
      expect(data.inProgress.map((item) => item.id)).toEqual(next.map((item) => item.id));
      for (const item of [...data.inProgress, ...(data.randomPlannedPick ? [data.randomPlannedPick] : [])]) expect(item.domain).toBe('BOOKS');
      await expect(client.getPrompt({ name: 'tonight', arguments: { domain: 'comics' } })).rejects.toThrow(/domain comics is not one of/);
    });

    it('catch-up names the shows with aired episodes not yet seen, or says there are none', async () => {
      const prompt = await client.getPrompt({ name: 'catch-up' });
      const message = (prompt.messages[0]!.content as { text: string }).text;
      const behind = ((await lkJson(bed, ['next', '--offline', '--db', mirror, '--all'])) as { id: string; episodesBehind: number | null }[]).filter(
        (item) => (item.episodesBehind ?? 0) > 0,
      );
      if (behind.length === 0) expect(message).toMatch(/^Nothing to catch up on/);
      else
        expect((JSON.parse(message.slice(message.indexOf('\n\n'))) as { shows: { id: string }[] }).shows.map((show) => show.id)).toEqual(
          behind.map((item) => item.id),
        );
    });

    it('year-in-review is this year without an argument, and the figures of lk report --json for a year given', async () => {
      const plain = await client.getPrompt({ name: 'year-in-review' });
      expect(plain.description).toBe(`${new Date().getUTCFullYear()} in review`);
      const { completion } = await client.complete({ ref: { type: 'ref/prompt', name: 'year-in-review' }, argument: { name: 'year', value: '' } });
      const year = completion.values[0]!;
      const prompt = await client.getPrompt({ name: 'year-in-review', arguments: { year } });
      const message = (prompt.messages[0]!.content as { text: string }).text;
      expect(JSON.parse(message.slice(message.indexOf('\n\n')))).toEqual(await lkJson(bed, ['report', '--year', year, '--db', mirror]));
    });
  });
});

describeWithSqlite('lk mcp on 2026-07-28 keeps what issue 34 made true (in-process, on pipes)', () => {
  it('a cancelled call ends its query process, bad arguments are one line, and a line that is not JSON is -32700', async () => {
    const server = mcpInProcess(bed, ['--db', mirror, '--timeout', '600']);
    const lines = linesOf(server.stdout);
    const client = new V2Client({ name: 'lk-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(pipeTransport(server.stdout, server.stdin) as Parameters<V2Client['connect']>[0]);
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');

    const cancel = new AbortController();
    const cancelled = client.callTool({ name: 'sql', arguments: { query: RUNAWAY } }, { signal: cancel.signal });
    await until(() => queryProcessesOf(process.pid).length === 1);
    const [pid] = queryProcessesOf(process.pid);
    cancel.abort('the user stopped it');
    await expect(cancelled).rejects.toThrow();
    await until(() => !queryProcessesOf(process.pid).includes(pid!));

    const bad = await client.callTool({ name: 'list_library', arguments: { limit: '5' } });
    expect(bad.isError).toBe(true);
    expect((bad.content as { text: string }[])[0]!.text).toMatch(/^bad arguments for list_library: limit: expected number, got "5"$/);

    server.stdin.write('{not json\n');
    await until(() => lines.some((line) => (line as { error?: { code?: number } }).error?.code === -32700));
    expect((await client.callTool({ name: 'sql', arguments: { query: 'SELECT count(*) AS n FROM entries' } })).structuredContent).toMatchObject({
      rows: [{ n: ENTRIES }],
    });
    server.stdin.end();
    expect(await server.exited).toBe(0);
  });
});
