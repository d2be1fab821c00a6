import { join } from 'node:path';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestBed, type TestBed } from '../e2e/harness.js';
import { tempDir } from '../support/temp-dir.js';
import { connectInProcess, mcpInProcess, pipeTransport } from './mcp-support.js';
import { describeWithSqlite, hasSqlite } from '../support/sqlite-node.js';

// Issue 61: lk mcp as the directories and the desktop hosts ask of a server. Every tool's schemas portable (no
// keyword listing two types, no schema without a keyword: the Inspector's --strict warnings), its title and four
// hints kept (openWorldHint true under --live for the tools that then read the API), and its structuredContent valid
// against its outputSchema, on both revisions of the protocol.

const ENTRIES = 60;
let bed: TestBed;
let mirror: string;

beforeAll(async () => {
  bed = await startTestBed({ entries: ENTRIES, rateLimit: 0, exportIntervalSeconds: 0 });
  mirror = join(tempDir('lk-mcp-directories-'), 'mirror.db');
  if (!hasSqlite) return;
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
  call(name: string, args: Record<string, unknown>): Promise<Answer>;
  close(): Promise<void>;
}

/** The 2025-11-25 revision (the v1 SDK's client, initialize) and 2026-07-28 (the v2 client, server/discover). */
const REVISIONS: Record<string, (args: string[]) => Promise<Revision>> = {
  '2025-11-25': async (args) => {
    const { client, close } = await connectInProcess(bed, args);
    return {
      tools: (await client.listTools()).tools as ListedTool[],
      call: async (name, given) => (await client.callTool({ name, arguments: given })) as Answer,
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
      call: async (name, given) => (await client.callTool({ name, arguments: given })) as Answer,
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

function validator() {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
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
          const validate = ajv.compile(tool.outputSchema!);
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
