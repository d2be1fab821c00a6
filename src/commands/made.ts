import type { Command } from 'commander';
import { DATA } from '../output/shape.js';
import { READINGS, type ListingReading, type Reading, type ReadingName } from '../readings/table.js';
import { addCommand, defineCommand } from './define.js';
import type { DateValue } from './flag-values.js';
import type { Flags } from './flags.js';
import { DB_FLAG, filterFlag, OFFLINE_FLAGS, OUTPUT_FLAG, PAGING_FLAGS } from './options.js';
import { runReading } from './readings.js';

/**
 * The commands made from the readings table: a listing of src/readings/table.ts whose command no module of
 * ./index.ts writes gets this one — its filters as flags (each made from its declaration, src/readings/filters.ts),
 * --offline where the API has it too, the paging flags where it is paged — so a listing added to the table is a
 * command with no line here. They join the tree when the whole program is made (help, a word no module names).
 */
export function registerMadeReadings(program: Command, readings: Record<string, Reading> = READINGS): void {
  const taken = new Set(program.commands.map((command) => command.name()));
  for (const [name, reading] of Object.entries(readings)) {
    const [word, ...more] = reading.surfaces.command;
    if (reading.kind !== 'listing' || word === undefined || more.length > 0 || taken.has(word)) continue;
    addCommand(program, madeCommand(name as ReadingName, word, reading));
  }
}

function madeCommand(name: ReadingName, word: string, reading: ListingReading) {
  const filters: Flags = Object.fromEntries((reading.takes ?? []).map((filter) => [filter, filterFlag(filter)]));
  const source = reading.api === undefined ? DB_FLAG : reading.surfaces.offline ? OFFLINE_FLAGS : {};
  return defineCommand({
    name: word,
    description: reading.about.toLowerCase(),
    output: DATA,
    flags: { ...filters, ...source, ...(reading.paged ? PAGING_FLAGS : OUTPUT_FLAG) },
    examples: [`lk ${word}`],
    async run(ctx, _out, options) {
      const now = ctx.now();
      const values = options as Record<string, unknown>;
      // A date filter's moment is read at the run's time (7d, today); a choice is as the flag hands it.
      const given = (reading.takes ?? []).map((filter) => {
        const value = values[filter];
        return [filter, typeof value === 'object' && value !== null ? (value as DateValue).at(now) : value];
      });
      return runReading(ctx, name, Object.fromEntries(given), values);
    },
  });
}
