import { listingPages, singleValue } from '../readings/engine.js';
import { dataAsOfMirror } from './listing.js';
import type { McpMirror, ToolHost } from './mirror.js';

/** One entry and its history, as get_entry and lk://entry/{id} give them: the readings' answer, or with --live the API's. */
export interface EntryAnswer {
  /** The entry as the API sends it. */
  entry: unknown;
  /** Its events in the API's order (the undated last). */
  history: unknown[];
  source: 'mirror' | 'api';
  dataAsOf: string | null;
}

/** The entry `id`, or undefined when the mirror has none (with --live, the API's own error says it). */
export async function readEntry(host: ToolHost, mirror: McpMirror, id: string): Promise<EntryAnswer | undefined> {
  const readings = mirror.readings;
  const live = host.live !== undefined;
  const entry = await singleValue(readings, 'entry', { id }, !live);
  if (entry === undefined) return undefined;
  // The whole history, page after page, however long: one page of 100 would leave out the older events.
  const history: unknown[] = [];
  for await (const page of listingPages(readings, 'entryHistory', { id }, { all: true }, !live)) history.push(...page.items);
  if (live) return { entry, history, source: 'api', dataAsOf: new Date(host.now()).toISOString() };
  return { entry, history, source: 'mirror', dataAsOf: mirror.read(dataAsOfMirror) };
}
