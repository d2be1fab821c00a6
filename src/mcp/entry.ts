import { pathOf } from '../api/endpoints.js';
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
    const entry = await host.live(pathOf('entry', id));
    const history = (await host.live(pathOf('entryHistory', id), { limit: '100' })) as { items?: unknown[] };
    return { entry, history: history.items ?? [], source: 'api', dataAsOf: new Date(host.now()).toISOString() };
  }
  return mirror.read((db) => {
    const entry = READINGS.entry.mirror(db, { id });
    if (entry === undefined) return undefined;
    const history = [...READINGS.entryHistory.mirror(db, { id }, EVERYTHING).items];
    return { entry, history, source: 'mirror' as const, dataAsOf: dataAsOfMirror(db) };
  });
}
