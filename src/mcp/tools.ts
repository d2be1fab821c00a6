import * as z from 'zod';
import { pathOf } from '../api/endpoints.js';
import { ORDERS, SORTS } from '../api/vocabulary.js';
import { statsSnapshot, type Listing } from '../mirror/read.js';
import { READINGS } from '../readings/table.js';
import { yearInReview } from '../readings/composed.js';
import { singleValue } from '../readings/engine.js';
import { sqlPage, SQL_BYTE_LIMIT, SQL_ROW_LIMIT } from './limits.js';
import { readEntry } from './entry.js';
import { linked } from './links.js';
import { ENTRY_ID, entryLinks, EVENT_ENTRY_ID } from './resource-links.js';
import {
  dataAsOf,
  dataAsOfMirror,
  domain,
  filterArgument,
  isoDate,
  jsonObject,
  limit,
  listing,
  nextCursor,
  page,
  phase,
  readingPage,
} from './listing.js';
import { OVERVIEW_TOOLS } from './overview-tools.js';
import { cursorArgument, PAGE_SIZE } from './paging.js';
import { readingTools } from './reading-tools.js';
import { recommendTool } from './recommend.js';
import { tool, type Tool } from './tool.js';
import { defaultYearView } from './views.js';

/**
 * The tools of `lk mcp`, as a table: each its input and output as zod schemas (sent as JSON Schema) and what it runs.
 * Listings answer a page of compact items with `nextCursor` while more remain (paging.ts, listing.ts); get_entry gives
 * one item whole. A reading of src/readings/table.ts that names a tool not written here gets one made from it. lk's own readings run in this process (mirror.ts); the sql tool's query runs in a query process.
 */

const source = z.enum(['mirror', 'api']);

const searchTool = tool({
  name: 'search',
  title: 'Search the library',
  input: z.strictObject({ text: z.string().trim().min(1).describe('words to find'), domain, phase, limit, cursor: cursorArgument }),
  output: listing,
  links: (answer) => entryLinks(answer.results, ENTRY_ID),
  run: ({ text, domain, phase, limit }, call) => readingPage(call, 'search', { text, domain, phase }, limit),
});

const listLibraryTool = tool({
  name: 'list_library',
  title: 'List library entries',
  input: z.strictObject({
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
    limit,
    cursor: cursorArgument,
  }),
  output: listing,
  links: (answer) => entryLinks(answer.results, ENTRY_ID),
  run: (input, call) => {
    const filters = {
      domain: input.domain,
      phase: input.phase,
      status: input.status,
      minRating: input.min_rating,
      maxRating: input.max_rating,
      addedFrom: input.added_from,
      addedTo: input.added_to,
      finishedFrom: input.finished_from,
      finishedTo: input.finished_to,
      sort: input.sort,
      order: input.order,
    };
    return readingPage(call, 'library', filters, input.limit);
  },
});

const getEntryTool = tool({
  name: 'get_entry',
  title: 'One library entry with its history',
  input: z.strictObject({ id: z.string().trim().min(1).describe('the entry id, as the other tools give it (id of a result)') }),
  output: z.object({
    entry: z.object({ link: z.string().nullable(), item: jsonObject.describe('the entry as the API gives it') }),
    history: z.array(jsonObject.describe('an event of the entry, as the API gives it')),
    source,
    dataAsOf,
  }),
  live: true,
  run: async ({ id }, { host, mirror }) => {
    const found = await readEntry(host, mirror, id);
    if (found === undefined)
      throw new Error(`no library entry ${id} in the mirror (ids come from search or list_library; lk sync brings new entries)`);
    return {
      ...found,
      entry: linked(found.entry) as { link: string | null; item: Record<string, unknown> },
      history: found.history as Record<string, unknown>[],
    };
  },
});

const historyTool = tool({
  name: 'history',
  title: 'What was watched, played, read or listened to in a window',
  input: z.strictObject({ from: filterArgument('from'), to: filterArgument('to'), domain, limit, cursor: cursorArgument }),
  output: listing,
  links: (answer) => entryLinks(answer.results, EVENT_ENTRY_ID),
  run: ({ from, to, domain, limit }, call) => readingPage(call, 'history', { domain, from, to }, limit),
});

const statsTool = tool({
  name: 'stats',
  title: 'Figures for a year or any days',
  input: z.strictObject({
    year: z.number().int().min(1970).max(9999).optional().describe('a calendar year, e.g. 2025'),
    from: z.iso.date().optional().describe('first day instead of a year (YYYY-MM-DD)'),
    to: z.iso.date().optional().describe('last day, included (YYYY-MM-DD; default today)'),
  }),
  output: z.object({
    figures: jsonObject.describe("the period's figures, as lk report --json gives them"),
    summary: jsonObject.nullable().describe("the account's all-time stats as the API gives them (null when the mirror has none)"),
    source,
    dataAsOf,
  }),
  live: true,
  view: defaultYearView,
  run: async ({ year, from, to }, { host, mirror }) => {
    const readings = mirror.readings;
    // Cut to the years that hold data (figures.period says so): the answer's size is the data's, not the period's.
    const review = await yearInReview(readings, { year: year === undefined ? undefined : String(year), from, to }, { cutToData: true });
    const figures = review.figures as unknown as Record<string, unknown>;
    const dataAsOf = mirror.read(dataAsOfMirror);
    if (host.live)
      return { figures, summary: (await singleValue(readings, 'stats', {}, false)) as Record<string, unknown>, source: 'api' as const, dataAsOf };
    return { figures, summary: (mirror.read(statsSnapshot) as Record<string, unknown> | undefined) ?? null, source: 'mirror' as const, dataAsOf };
  },
});

const calendarTool = tool({
  name: 'calendar',
  title: 'Upcoming episodes of followed shows',
  input: z.strictObject({ domain, limit, cursor: cursorArgument }),
  output: listing.extend({ source }),
  live: true,
  run: async ({ domain, limit }, call) => {
    const within = (items: unknown[]): Listing => ({ items: items.slice(call.offset, call.offset + limit), total: items.length });
    if (call.host.live) {
      const calendar = (await call.host.live.get(pathOf('calendar'), { domain })).json as { items?: unknown[] } | unknown[];
      const items = Array.isArray(calendar) ? calendar : (calendar.items ?? []);
      // Read live: the mirror is not opened (there may be none).
      return { ...page(within(items), call, new Date(call.host.now()).toISOString()), source: 'api' as const };
    }
    return { ...(await readingPage(call, 'calendar', { domain }, limit)), source: 'mirror' as const };
  },
});

const sqlTool = tool({
  name: 'sql',
  title: 'A read-only SQL query on the mirror',
  input: z.strictObject({
    query: z.string().trim().min(1).describe('one SELECT (or WITH …, or a PRAGMA that reads)'),
    max_rows: z.number().int().min(1).max(SQL_ROW_LIMIT).default(PAGE_SIZE).describe(`rows per page (1 to ${SQL_ROW_LIMIT})`),
    cursor: cursorArgument,
  }),
  output: z.object({
    columns: z.array(z.string()),
    rows: z.array(jsonObject.describe('a row, its values by column (a BLOB as {"$base64": true, "encoded": …})')),
    truncated: z.boolean().describe('true when more rows remain (max_rows or the size limit cut the answer): nextCursor continues'),
    nextCursor,
    dataAsOf,
  }),
  run: async ({ query, max_rows }, call) => {
    const found = await call.mirror.sql(query, call.offset, max_rows, { maxBytes: SQL_BYTE_LIMIT, maxValueBytes: SQL_BYTE_LIMIT }, call.signal);
    const answer = sqlPage(found);
    return {
      ...answer,
      ...(answer.truncated ? { nextCursor: call.cursorAt(call.offset + answer.rows.length) } : {}),
      dataAsOf: call.mirror.read(dataAsOfMirror),
    };
  },
});

const WRITTEN: readonly Tool[] = [
  searchTool,
  listLibraryTool,
  getEntryTool,
  historyTool,
  statsTool,
  calendarTool,
  ...OVERVIEW_TOOLS,
  recommendTool,
  sqlTool,
];

/** The tools written here, and one made from each reading that names a tool no one wrote (reading-tools.ts). */
export function allTools(): readonly Tool[] {
  return [...WRITTEN, ...readingTools(READINGS, new Set(WRITTEN.map((written) => written.name)))];
}

export const TOOLS: readonly Tool[] = allTools();
