import * as z from 'zod';
import type { ListingFilter, Reading } from '../readings/table.js';
import { readingToolDescription } from './descriptions.js';
import { filterArgument, limit, listing, readingPage } from './listing.js';
import { cursorArgument } from './paging.js';
import type { Tool } from './tool.js';
import { madeToolReadings } from './tool-names.js';

/**
 * lk mcp's tools made from the readings table: a listing of the mirror that names a tool no one wrote in tools.ts
 * gets this one — its filters as arguments, a page of compact items a call, the cursor for the next — so a reading
 * added to the table with a tool is served without a line here.
 */

export function readingTools(readings: Record<string, Reading>, written: ReadonlySet<string>): Tool[] {
  return madeToolReadings(readings, written).map((reading) => {
    const takes = reading.takes ?? [];
    const shape = Object.fromEntries(takes.map((name) => [name, filterArgument(name)]));
    return {
      name: reading.surfaces.tool,
      title: reading.about,
      description: readingToolDescription(reading.about, takes),
      input: z.strictObject({ ...shape, limit, cursor: cursorArgument }),
      output: listing,
      paged: true,
      run: (args, call) => {
        const filters = Object.fromEntries(takes.map((name) => [name, args[name]])) as Partial<Record<ListingFilter, string>>;
        return readingPage(call, reading, filters, args.limit as number);
      },
    };
  });
}
