import { pathOf } from '../api/endpoints.js';
import { paginate } from '../api/paginate.js';
import { EVERYTHING } from '../readings/pages.js';
import { READINGS } from '../readings/table.js';
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
  if (host.live) {
    const entry = (await host.live.get(pathOf('entry', id))).json;
    // The whole history, page after page, however long: one page of 100 would leave out the older events.
    const history: unknown[] = [];
    for await (const page of paginate(host.live, pathOf('entryHistory', id), {}, { all: true })) history.push(...page.items);
    return { entry, history, source: 'api', dataAsOf: new Date(host.now()).toISOString() };
  }
  return mirror.read((db) => {
    const entry = READINGS.entry.mirror(db, { id });
    if (entry === undefined) return undefined;
    const history = [...READINGS.entryHistory.mirror(db, { id }, EVERYTHING).items];
    return { entry, history, source: 'mirror' as const, dataAsOf: dataAsOfMirror(db) };
  });
}
