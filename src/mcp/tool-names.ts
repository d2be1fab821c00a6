import { READINGS, type ListingReading, type Reading } from '../readings/table.js';
import { DESCRIPTIONS } from './descriptions.js';

/**
 * The names of every tool lk mcp serves — those written with their descriptions (tools.ts), and those made from the
 * readings (reading-tools.ts) — for lk mcp --tools, checked before the server, the SDK and zod load: nothing here
 * imports them.
 */

export type ToolReading = ListingReading & { mirror: NonNullable<ListingReading['mirror']>; surfaces: { tool: string } };

/** The readings that get a made tool: listings the mirror answers, naming a tool that is not among `written`. */
export function madeToolReadings(readings: Record<string, Reading>, written: ReadonlySet<string>): ToolReading[] {
  return Object.values(readings).filter(
    (reading): reading is ToolReading =>
      reading.kind === 'listing' && reading.mirror !== undefined && reading.surfaces.tool !== undefined && !written.has(reading.surfaces.tool),
  );
}

const written = Object.keys(DESCRIPTIONS);
/** Every tool's name, the table read at the call (a reading added to it is served). */
export function toolNames(): readonly string[] {
  return [...written, ...madeToolReadings(READINGS, new Set(written)).map((reading) => reading.surfaces.tool)];
}

export const TOOL_NAMES: readonly string[] = toolNames();
