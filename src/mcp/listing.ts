import * as z from 'zod';
import { FILTERS, type ListingFilter } from '../readings/filters.js';
import type { Database } from '../mirror/database.js';
import { mirrorAge, type Listing } from '../mirror/read.js';
import { mirrorWindow } from '../readings/engine.js';
import type { Filters, ListingReading, ReadingName } from '../readings/table.js';
import { compactItem } from './compact.js';
import { MOST_PER_PAGE, PAGE_SIZE } from './paging.js';
import type { ToolCall } from './tool.js';

/** What the listing tools share: their arguments, the shape of a page, and the page made from the mirror's listing. */

export const limit = z.number().int().min(1).max(MOST_PER_PAGE).default(PAGE_SIZE).describe(`items per page (1 to ${MOST_PER_PAGE})`);
export const isoDate = z
  .union([z.iso.date(), z.iso.datetime()], { error: 'expected YYYY-MM-DD or an ISO 8601 instant such as 2026-03-01T18:00:00Z' })
  .describe('YYYY-MM-DD (UTC) or an ISO 8601 instant');
/**
 * A listing filter's argument, made from its one declaration (src/readings/filters.ts): a choice as an enum (its
 * values listed for the model), a date as YYYY-MM-DD or an ISO 8601 instant.
 */
export function filterArgument(name: ListingFilter) {
  const declared = FILTERS[name];
  if (declared.values === 'choice') {
    return z
      .enum(declared.choices as readonly [string, ...string[]])
      .optional()
      .describe(`${declared.keeps} (${declared.choices.join(', ')})`);
  }
  return isoDate.optional();
}

export const domain = filterArgument('domain');
export const phase = filterArgument('phase');

/** A JSON object as the server or the mirror gives it: its fields are whatever the API sends. */
export const jsonObject = z.record(z.string(), z.unknown());

export const dataAsOf = z.string().nullable().describe('when the mirror took this data from the server (lk sync), ISO 8601');
export const nextCursor = z.string().optional().describe('present when more remain: call the same tool with cursor set to it for the next page');
const item = z.looseObject({ link: z.string().nullable() }).describe("an item's page in the web app and its main fields");
export const listing = z.object({ total: z.number().describe('items in the whole listing'), results: z.array(item), nextCursor, dataAsOf });

/**
 * A page of a listing read from the mirror, with what the assistant needs to ask for the next one. The listing's items
 * stream from its statement (mirror/read.ts), which is read here to the page's end, each item made compact as it comes.
 */
export function page(found: Listing, call: ToolCall, dataAsOf: string | null) {
  const results = Array.from(found.items, compactItem);
  const next = call.offset + results.length;
  return {
    total: found.total,
    results,
    ...(next < found.total ? { nextCursor: call.cursorAt(next) } : {}),
    dataAsOf,
  };
}

/** When the mirror took its data from the server (ISO 8601), or null where it does not say. */
export const dataAsOfMirror = (db: Database) => isoOrNull(mirrorAge(db).snapshotAt);
export const isoOrNull = (at: number | undefined) => (at === undefined ? null : new Date(at).toISOString());

/** A page of a listing reading from the mirror, run by the engine for the owner (lk mcp is the owner's assistant). */
export async function readingPage(call: ToolCall, name: ReadingName | ListingReading, filters: Filters, limit: number) {
  const { listing: found, snapshotAt } = await mirrorWindow(call.mirror.readings, name, filters, { offset: call.offset, limit });
  return page(found, call, isoOrNull(snapshotAt));
}
