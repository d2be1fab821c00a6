import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { pathOf } from '../api/endpoints.js';
import { DOMAINS, ORDERS, PHASES, SORTS } from '../api/vocabulary.js';
import { mirrorAge, statsSnapshot } from '../mirror/read.js';
import { reportFigures } from '../report/figures.js';
import { reportPeriod } from '../report/period.js';
import { localToday } from '../report/time-zone.js';
import { DESCRIPTIONS } from './descriptions.js';
import { sqlAnswer, SQL_ROW_LIMIT } from './limits.js';
import { linked } from './links.js';
import { withMirror, withMirrorHere, type MirrorReads, type ToolHost } from './mirror.js';

/**
 * The tools of `lk mcp`: each a JSON Schema for its input (from zod) and for its structured output, answered from the
 * mirror by the same functions as `lk search`, `lk library --offline`, `lk history --offline` and `lk sql`. Server
 * data goes back as data: the items exactly as the server sent them, as JSON, nothing added to or read from their text.
 */

const domain = z.enum(DOMAINS).optional().describe('only this domain');
const phase = z.enum(PHASES).optional().describe('only entries in this phase (PLANNED, IN_PROGRESS, DONE, DROPPED)');
const limit = (most: number, usual: number) => z.number().int().min(1).max(most).default(usual).describe(`how many to return (1 to ${most})`);
const offset = z.number().int().min(0).default(0).describe('how many to skip, for the next page');
const isoDate = z.iso.date().or(z.iso.datetime()).describe('YYYY-MM-DD (UTC) or an ISO 8601 instant');
const dataAsOf = z.string().nullable().describe('when the mirror took this data from the server (lk sync), ISO 8601');
const results = z.array(z.object({ link: z.string().nullable(), item: z.unknown() }));
const page = { total: z.number(), offset: z.number(), results, dataAsOf };

/** A tool's structured answer, with the same JSON as its text for clients that read only text. */
function answer<T extends Record<string, unknown>>(structured: T) {
  return { content: [{ type: 'text' as const, text: JSON.stringify(structured) }], structuredContent: structured };
}

/** When the mirror took its data from the server (ISO 8601), or null where it does not say. */
async function dataAsOfMirror(mirror: MirrorReads): Promise<string | null> {
  return isoOrNull((await mirror.mirrorAge()).snapshotAt);
}

const isoOrNull = (at: number | undefined) => (at === undefined ? null : new Date(at).toISOString());

export function registerTools(server: McpServer, host: ToolHost): void {
  server.registerTool(
    'search',
    {
      title: 'Search the library',
      description: DESCRIPTIONS.search,
      inputSchema: { text: z.string().trim().min(1).describe('words to find'), domain, phase, limit: limit(100, 20), offset },
      outputSchema: page,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ text, domain, phase, limit, offset }) =>
      withMirror(host, async (mirror) => {
        const found = await mirror.searchEntries(text, { domain, phase }, { offset, limit });
        return answer({ total: found.total, offset, results: found.items.map(linked), dataAsOf: await dataAsOfMirror(mirror) });
      }),
  );

  server.registerTool(
    'list_library',
    {
      title: 'List library entries',
      description: DESCRIPTIONS.list_library,
      inputSchema: {
        domain,
        phase,
        status: z.string().min(1).optional().describe("the entry's own status, e.g. PLANNED, WATCHING, BACKLOG, TO_READ, READ, LISTENED"),
        min_rating: z.number().optional().describe('only entries rated at least this'),
        max_rating: z.number().optional().describe('only entries rated at most this'),
        added_from: isoDate.optional(),
        added_to: isoDate.optional(),
        finished_from: isoDate.optional(),
        finished_to: isoDate.optional(),
        sort: z.enum(SORTS).default('added').describe('added (newest first), title (A to Z), rating (best first), finished (newest first)'),
        order: z.enum(ORDERS).default('desc').describe('desc keeps the natural order of the sort; asc reverses it'),
        limit: limit(200, 50),
        offset,
      },
      outputSchema: page,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (input) =>
      withMirror(host, async (mirror) => {
        const filters = {
          domain: input.domain,
          phase: input.phase,
          status: input.status?.toUpperCase(),
          minRating: input.min_rating,
          maxRating: input.max_rating,
          addedFrom: input.added_from,
          addedTo: input.added_to,
          finishedFrom: input.finished_from,
          finishedTo: input.finished_to,
          sort: input.sort,
          order: input.order,
        };
        const found = await mirror.libraryItems(filters, { offset: input.offset, limit: input.limit });
        return answer({
          total: found.total,
          offset: input.offset,
          results: found.items.map(linked),
          dataAsOf: await dataAsOfMirror(mirror),
        });
      }),
  );

  server.registerTool(
    'get_entry',
    {
      title: 'One library entry with its history',
      description: DESCRIPTIONS.get_entry,
      inputSchema: { id: z.string().trim().min(1).describe('the entry id, as the other tools give it (item.id)') },
      outputSchema: {
        entry: z.object({ link: z.string().nullable(), item: z.unknown() }),
        history: z.array(z.unknown()),
        source: z.enum(['mirror', 'api']),
        dataAsOf,
      },
      annotations: { readOnlyHint: true, openWorldHint: host.live !== undefined },
    },
    async ({ id }) => {
      if (host.live) {
        const entry = await host.live(pathOf('entry', id));
        const history = (await host.live(pathOf('entryHistory', id), { limit: '100' })) as { items?: unknown[] };
        return answer({ entry: linked(entry), history: history.items ?? [], source: 'api' as const, dataAsOf: new Date(host.now()).toISOString() });
      }
      return withMirror(host, async (mirror) => {
        const found = await mirror.entryWithHistory(id);
        if (!found) throw new Error(`no library entry ${id} in the mirror (ids come from search or list_library; lk sync brings new entries)`);
        return answer({
          entry: linked(found.entry),
          history: found.history,
          source: 'mirror' as const,
          dataAsOf: await dataAsOfMirror(mirror),
        });
      });
    },
  );

  server.registerTool(
    'history',
    {
      title: 'What was watched, played, read or listened to in a window',
      description: DESCRIPTIONS.history,
      inputSchema: { from: isoDate.optional(), to: isoDate.optional(), domain, limit: limit(500, 100), offset },
      outputSchema: page,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ from, to, domain, limit, offset }) =>
      withMirror(host, async (mirror) => {
        const found = await mirror.historyItems({ domain, from: bound(from, 'start'), to: bound(to, 'end') }, { offset, limit });
        return answer({ total: found.total, offset, results: found.items.map(linked), dataAsOf: await dataAsOfMirror(mirror) });
      }),
  );

  server.registerTool(
    'stats',
    {
      title: 'Figures for a year or any days',
      description: DESCRIPTIONS.stats,
      inputSchema: {
        year: z.number().int().min(1970).max(9999).optional().describe('a calendar year, e.g. 2025'),
        from: z.iso.date().optional().describe('first day instead of a year (YYYY-MM-DD)'),
        to: z.iso.date().optional().describe('last day, included (YYYY-MM-DD; default today)'),
      },
      outputSchema: { figures: z.record(z.string(), z.unknown()), summary: z.unknown(), source: z.enum(['mirror', 'api']), dataAsOf },
      annotations: { readOnlyHint: true, openWorldHint: host.live !== undefined },
    },
    async ({ year, from, to }) => {
      const period = reportPeriod({ year: year === undefined ? undefined : String(year), from, to }, localToday(host.now(), host.fallbackTimeZone));
      const { figures, summary, dataAsOf } = withMirrorHere(host, (db) => ({
        figures: reportFigures(db, { period, fallbackTimeZone: host.fallbackTimeZone }) as unknown as Record<string, unknown>,
        summary: statsSnapshot(db) ?? null,
        dataAsOf: isoOrNull(mirrorAge(db).snapshotAt),
      }));
      if (host.live) return answer({ figures, summary: await host.live(pathOf('stats')), source: 'api' as const, dataAsOf });
      return answer({ figures, summary, source: 'mirror' as const, dataAsOf });
    },
  );

  server.registerTool(
    'calendar',
    {
      title: 'Upcoming episodes of followed shows',
      description: DESCRIPTIONS.calendar,
      inputSchema: { domain },
      outputSchema: { results, source: z.enum(['mirror', 'api']), dataAsOf },
      annotations: { readOnlyHint: true, openWorldHint: host.live !== undefined },
    },
    async ({ domain }) => {
      if (host.live) {
        const calendar = (await host.live(pathOf('calendar'), { domain })) as { items?: unknown[] } | unknown[];
        const items = Array.isArray(calendar) ? calendar : (calendar.items ?? []);
        return answer({ results: items.map(linked), source: 'api' as const, dataAsOf: new Date(host.now()).toISOString() });
      }
      return withMirror(host, async (mirror) =>
        answer({
          results: (await mirror.upcomingCalendar({ domain }, host.now())).map(linked),
          source: 'mirror' as const,
          dataAsOf: await dataAsOfMirror(mirror),
        }),
      );
    },
  );

  server.registerTool(
    'sql',
    {
      title: 'A read-only SQL query on the mirror',
      description: DESCRIPTIONS.sql,
      inputSchema: {
        query: z.string().trim().min(1).describe('one SELECT (or WITH …, or a PRAGMA that reads)'),
        max_rows: z.number().int().min(1).max(SQL_ROW_LIMIT).default(100).describe(`at most this many rows (1 to ${SQL_ROW_LIMIT})`),
      },
      outputSchema: {
        columns: z.array(z.string()),
        rows: z.array(z.record(z.string(), z.unknown())),
        truncated: z.boolean().describe('true when rows were left out to keep within max_rows or the size limit'),
        total_rows: z.number(),
        dataAsOf,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ query, max_rows }) =>
      withMirror(host, async (mirror) => answer({ ...sqlAnswer(await mirror.sql(query), max_rows), dataAsOf: await dataAsOfMirror(mirror) })),
  );
}

/** A date bound in ms: a bare date is that whole day in UTC. */
function bound(value: string | undefined, edge: 'start' | 'end'): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return Date.parse(`${value}T${edge === 'start' ? '00:00:00.000' : '23:59:59.999'}Z`);
  return Date.parse(value);
}
