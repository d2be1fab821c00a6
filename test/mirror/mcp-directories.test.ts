import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestBed, type TestBed } from '../e2e/harness.js';
import { tempDir } from '../support/temp-dir.js';
import { openForWriting } from '../../src/mirror/open.js';
import { call, connectInProcess, lkJson, mcpInProcess, pipeTransport } from './mcp-support.js';
import { describeWithSqlite, hasSqlite } from '../support/sqlite-node.js';

// Issue 61: lk mcp as the directories and the desktop hosts ask of a server. Every tool's schemas portable (no
// keyword listing two types, no schema without a keyword: the Inspector's --strict warnings), its title and four
// hints kept (openWorldHint true under --live for the tools that then read the API), and its structuredContent valid
// against its outputSchema, on both revisions of the protocol.

const ENTRIES = 60;
let bed: TestBed;
let mirror: string;
/** Planted in every entry's notes before the sync: found in no answer of the recommend prompt or tool. */
const NOTE_MARKER = 'lkNoteMarkerX9';

beforeAll(async () => {
  bed = await startTestBed({ entries: ENTRIES, rateLimit: 0, exportIntervalSeconds: 0 });
  mirror = join(tempDir('lk-mcp-directories-'), 'mirror.db');
  if (!hasSqlite) return;
  const account = bed.sandbox.keys.find((key) => key.name === 'full')!.account;
  for (const [n, id] of bed.sandbox.entryIds(account).entries()) bed.sandbox.noteEntry(account, id, `${NOTE_MARKER} ${n}: my private thoughts`);
  expect((await bed.lk(['sync', '--db', mirror])).code).toBe(0);
});

afterAll(async () => {
  await bed.sandbox.close();
});

type Schema = Record<string, unknown>;
interface ListedTool {
  name: string;
  title?: string;
  annotations?: Record<string, unknown>;
  inputSchema: Schema;
  outputSchema?: Schema;
}
interface Answer {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
}
interface Revision {
  tools: ListedTool[];
  capabilities: { extensions?: Record<string, unknown> } | undefined;
  call(name: string, args: Record<string, unknown>): Promise<Answer>;
  listResources(): Promise<{ uri: string }[]>;
  read(uri: string): Promise<{ mimeType?: string; text: string }>;
  close(): Promise<void>;
}

type Contents = { contents: { mimeType?: string; text?: string }[] };
const onlyText = (result: Contents) => result.contents[0] as { mimeType?: string; text: string };

/** The 2025-11-25 revision (the v1 SDK's client, initialize) and 2026-07-28 (the v2 client, server/discover). */
const REVISIONS: Record<string, (args: string[]) => Promise<Revision>> = {
  '2025-11-25': async (args) => {
    const { client, close } = await connectInProcess(bed, args);
    return {
      tools: (await client.listTools()).tools as ListedTool[],
      capabilities: client.getServerCapabilities() as Revision['capabilities'],
      call: async (name, given) => (await client.callTool({ name, arguments: given })) as Answer,
      listResources: async () => (await client.listResources()).resources,
      read: async (uri) => onlyText((await client.readResource({ uri })) as Contents),
      close,
    };
  },
  '2026-07-28': async (args) => {
    const server = mcpInProcess(bed, args);
    const client = new V2Client({ name: 'lk-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(pipeTransport(server.stdout, server.stdin) as Parameters<V2Client['connect']>[0]);
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    return {
      tools: (await client.listTools()).tools as ListedTool[],
      capabilities: client.getServerCapabilities() as Revision['capabilities'],
      call: async (name, given) => (await client.callTool({ name, arguments: given })) as Answer,
      listResources: async () => (await client.listResources()).resources,
      read: async (uri) => onlyText((await client.readResource({ uri })) as Contents),
      async close() {
        await client.close();
        server.stdin.end();
        expect(await server.exited).toBe(0);
      },
    };
  },
};

/** What the Inspector's --strict warns of: each place of a schema that lists two types, or holds no keyword. */
function portabilityProblems(schema: unknown, at = '#'): string[] {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return [];
  const node = schema as Schema;
  const problems: string[] = [];
  if (Array.isArray(node.type)) problems.push(`${at}: type ${JSON.stringify(node.type)}`);
  if (Object.keys(node).every((key) => ['title', 'description', 'default', 'examples', '$comment'].includes(key))) problems.push(`${at}: empty`);
  for (const key of ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties'])
    if (typeof node[key] === 'object') problems.push(...portabilityProblems(node[key], `${at}/${key}`));
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'])
    if (Array.isArray(node[key])) (node[key] as unknown[]).forEach((each, n) => problems.push(...portabilityProblems(each, `${at}/${key}/${n}`)));
  for (const key of ['properties', 'patternProperties', '$defs', 'definitions'])
    if (typeof node[key] === 'object')
      for (const [name, each] of Object.entries(node[key] as Schema)) problems.push(...portabilityProblems(each, `${at}/${key}/${name}`));
  return problems;
}

/** The least each tool needs to answer: its required arguments. */
const MINIMAL: Record<string, Record<string, unknown>> = {
  search: { text: 'a' },
  sql: { query: 'SELECT id, json FROM entries LIMIT 3' },
};

/**
 * ajv from its main entry (the one it exports): the schemas' keywords are those draft-07 and 2020-12 share, so their
 * `$schema` is set aside and each is checked by the draft ajv's main entry reads.
 */
function validator() {
  const ajv = new Ajv({ allErrors: true, strict: true });
  ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
  ajv.addFormat('date-time', (text: string) => !Number.isNaN(Date.parse(text)));
  return ajv;
}

for (const [revision, connect] of Object.entries(REVISIONS)) {
  describeWithSqlite(`lk mcp's tools for every client (${revision})`, () => {
    it('every tool has a title, the four hints, and input and output schemas with no type list and no empty schema', async () => {
      const served = await connect(['--db', mirror]);
      try {
        expect(served.tools.length).toBeGreaterThanOrEqual(13);
        for (const tool of served.tools) {
          expect(tool.title, tool.name).toBeTruthy();
          expect(tool.annotations, tool.name).toEqual({
            title: tool.title,
            readOnlyHint: true,
            destructiveHint: false,
            idempotentHint: true,
            openWorldHint: false,
          });
          expect(tool.outputSchema?.type, tool.name).toBe('object');
          expect(portabilityProblems(tool.inputSchema), `${tool.name} inputSchema`).toEqual([]);
          expect(portabilityProblems(tool.outputSchema), `${tool.name} outputSchema`).toEqual([]);
        }
      } finally {
        await served.close();
      }
    });

    it('every tool called with its least arguments answers structuredContent valid against its outputSchema (ajv), its text unchanged', async () => {
      const served = await connect(['--db', mirror]);
      const ajv = validator();
      try {
        const [entry] = (await served.call('list_library', { limit: 1 })).structuredContent!.results as { id: string }[];
        const minimal: Record<string, Record<string, unknown>> = { ...MINIMAL, get_entry: { id: String(entry!.id) } };
        for (const tool of served.tools) {
          const answer = await served.call(tool.name, minimal[tool.name] ?? {});
          expect(answer.isError, `${tool.name}: ${answer.content[0]?.text}`).toBeFalsy();
          const { $schema: _draft, ...schema } = tool.outputSchema!;
          const validate = ajv.compile(schema);
          expect(validate(answer.structuredContent) ? [] : validate.errors, tool.name).toEqual([]);
          expect(JSON.parse(answer.content[0]!.text!), tool.name).toEqual(answer.structuredContent);
        }
      } finally {
        await served.close();
      }
    });

    it('under --live the tools that then read the API say so (openWorldHint), the others do not, and every one stays read-only', async () => {
      const served = await connect(['--db', mirror, '--live']);
      try {
        const openWorld = served.tools.filter((tool) => tool.annotations?.openWorldHint === true).map((tool) => tool.name);
        expect(openWorld.sort()).toEqual(['calendar', 'get_entry', 'stats']);
        for (const tool of served.tools)
          expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
      } finally {
        await served.close();
      }
    });
  });
}

interface Work {
  title: string | null;
  domain: string | null;
  rating: number | null;
}
interface Taste {
  entries: { total: number; rated: number };
  ratings: { highest: number | null; counts: { rating: number; entries: number }[] };
  topRated: Work[];
  recentlyFinished: Work[];
  dropped: Work[];
}

describeWithSqlite('recommend: a prompt and a tool of the same taste profile', () => {
  it('prompts/get recommend names a top-rated title of the account and asks for works not in the library, with no note', async () => {
    const library = (await lkJson(bed, ['library', '--all'])) as { rating?: number | null; work: { title: string } }[];
    const best = Math.max(...library.map((entry) => entry.rating ?? -Infinity));
    const bestTitles = library.filter((entry) => entry.rating === best).map((entry) => entry.work.title);
    const { client, close } = await connectInProcess(bed, ['--db', mirror]);
    try {
      expect((await client.listPrompts()).prompts.find((prompt) => prompt.name === 'recommend')?.arguments).toEqual([
        expect.objectContaining({ name: 'domain', required: false }),
      ]);
      const prompt = await client.getPrompt({ name: 'recommend' });
      const text = (prompt.messages[0]!.content as { text: string }).text;
      expect(text).toMatch(/do not have in my library/);
      expect(text).toMatch(/reason/);
      const tool = (await call(client, 'recommend')).structuredContent as unknown as Taste;
      expect(bestTitles).toContain(tool.topRated[0]!.title);
      expect(text).toContain(tool.topRated[0]!.title);
      expect(tool.topRated[0]!.rating).toBe(best);
      expect(tool.entries.total).toBe(ENTRIES);
      expect(tool.ratings.highest).toBe(best);
      // The prompt's data are the tool's answer, whole.
      expect(JSON.parse(text.slice(text.indexOf('\n\n')))).toEqual(tool);
      expect(text).not.toContain(NOTE_MARKER);
      expect(JSON.stringify(tool)).not.toContain(NOTE_MARKER);
      // One domain: only its works; a domain that is none is refused, naming the prompt.
      const books = (await call(client, 'recommend', { domain: 'BOOKS' })).structuredContent as unknown as Taste;
      for (const work of [...books.topRated, ...books.recentlyFinished, ...books.dropped]) expect(work.domain).toBe('BOOKS');
      expect((await client.getPrompt({ name: 'recommend', arguments: { domain: 'books' } })).description).toMatch(/BOOKS only/);
      await expect(client.getPrompt({ name: 'recommend', arguments: { domain: 'comics' } })).rejects.toThrow(
        /recommend: domain comics is not one of/,
      );
    } finally {
      await close();
    }
  });

  it('stays a few KB at 20,000 entries (unbounded, their titles alone would be 1 MB): each list bounded, the spread in whole points', async () => {
    const big = join(tempDir('lk-mcp-taste-'), 'mirror.db');
    copyFileSync(mirror, big);
    const db = openForWriting(big);
    db.exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
      INSERT INTO entries (id, title, domain, status, phase, rating, notes, finished_at, position, json)
      SELECT 'big' || i, 'A generated work with a title of some length, number ' || i, 'BOOKS', CASE i % 3 WHEN 0 THEN 'DROPPED' ELSE 'READ' END,
             CASE i % 3 WHEN 0 THEN 'DROPPED' ELSE 'DONE' END, (i % 100) / 10.0, '${NOTE_MARKER}', '2026-01-01T00:00:00Z', 1000000 + i, '{}' FROM n`);
    db.close();
    const { client, close } = await connectInProcess(bed, ['--db', big]);
    try {
      const answer = await call(client, 'recommend');
      const taste = answer.structuredContent as unknown as Taste;
      expect(taste.entries.total).toBe(ENTRIES + 20000);
      expect([taste.topRated.length, taste.recentlyFinished.length, taste.dropped.length]).toEqual([20, 15, 10]);
      expect(taste.ratings.counts.length).toBeLessThanOrEqual(11);
      const prompt = await client.getPrompt({ name: 'recommend' });
      const bytes = Buffer.byteLength((prompt.messages[0]!.content as { text: string }).text);
      expect(bytes).toBeLessThan(12 * 1024);
      expect(Buffer.byteLength(answer.content[0]!.text)).toBeLessThan(12 * 1024);
      expect(JSON.stringify(prompt)).not.toContain(NOTE_MARKER);
    } finally {
      await close();
    }
  });
});

/** Where a view would reach outside itself: a src or href to another host, a script from a file, a CSS url or import. */
function outsideReferences(html: string): string[] {
  const found = [...html.matchAll(/\b(?:src|href|action|srcset|poster|data)\s*=\s*["']?([^"'\s>]+)/gi)].map((match) => match[1]!);
  const outside = found.filter((target) => !target.startsWith('#'));
  return [...outside, ...(html.match(/<script[^>]*\bsrc\b[^>]*>|url\(|@import|<link\b|<iframe\b|<img\b/gi) ?? [])];
}

/** A page's text without its script, its policy and its links (what the view changes of lk report's page). */
const figuresOf = (html: string) =>
  html
    .replace(/<script>[\s\S]*?<\/script>\n?/g, '')
    .replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '')
    .replace(/<a href="https?:[^"]*"[^>]*>(.*?)<\/a>/g, '$1');

/** Times said relative to now ("3d ago", "just now") as one word: the view and the command run a moment apart. */
const withoutRelativeTimes = (text: string) => text.replace(/\b\d+\s*\w+ ago\b|just now/g, 'sometime');

const unescaped = (text: string) =>
  text.replace(/&(lt|gt|quot|#39|amp);/g, (_all, name: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[name]!);

for (const [revision, connect] of Object.entries(REVISIONS)) {
  describeWithSqlite(`lk mcp's views, the MCP Apps extension (${revision})`, () => {
    it('advertises io.modelcontextprotocol/ui; the status and stats tools name their views, read as self-contained HTML of lk status and lk report', async () => {
      const served = await connect(['--db', mirror]);
      try {
        const meta = (name: string) => (served.tools.find((tool) => tool.name === name) as { _meta?: { ui?: { resourceUri?: string } } })._meta;
        expect(meta('status')).toEqual({ ui: { resourceUri: 'ui://lk/status' } });
        const yearUri = meta('stats')!.ui!.resourceUri!;
        expect(yearUri).toMatch(/^ui:\/\/lk\/year\/\d{4}$/);
        expect(
          served.tools
            .filter((tool) => (tool as { _meta?: unknown })._meta !== undefined)
            .map((tool) => tool.name)
            .sort(),
        ).toEqual(['stats', 'status']);
        expect(served.capabilities?.extensions).toEqual({ 'io.modelcontextprotocol/ui': {} });
        // Views are found through the tools, not listed (the extension allows it): resources/list is as it was.
        expect((await served.listResources()).map((resource) => resource.uri).sort()).toEqual(['lk://schema', 'lk://status']);

        const status = await served.read('ui://lk/status');
        expect(status.mimeType).toBe('text/html;profile=mcp-app');
        expect(status.text).toMatch(/^<!doctype html>/i);
        expect(outsideReferences(status.text)).toEqual([]);
        const screen = unescaped(/<pre>([\s\S]*)<\/pre>/.exec(status.text)![1]!);
        const command = await bed.lk(['status', '--offline', '--db', mirror]);
        expect(command.code).toBe(0);
        expect(withoutRelativeTimes(screen)).toBe(withoutRelativeTimes(command.stdout.trimEnd()));

        const year = yearUri.slice('ui://lk/year/'.length);
        const view = await served.read(yearUri);
        expect(view.mimeType).toBe('text/html;profile=mcp-app');
        expect(outsideReferences(view.text)).toEqual([]);
        const file = join(tempDir('lk-mcp-view-'), 'report.html');
        expect((await bed.lk(['report', '--year', year, '--db', mirror, '-o', file])).code).toBe(0);
        const report = readFileSync(file, 'utf8');
        expect(report).toMatch(/<a href="https?:/);
        expect(figuresOf(view.text)).toBe(figuresOf(report));
        // The tools' text results are as they were: JSON of their structured content.
        const answer = await served.call('status', {});
        expect(JSON.parse(answer.content[0]!.text!)).toEqual(answer.structuredContent);
        await expect(served.read('ui://lk/year/20x5')).rejects.toThrow(/four digits/);
      } finally {
        await served.close();
      }
    });
  });
}
