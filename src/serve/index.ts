import type { IncomingMessage, ServerResponse } from 'node:http';
import { mirrorAge } from '../mirror/read.js';
import { reviewedYears } from '../readings/composed.js';
import type { ReadingHost } from '../readings/host.js';
import { MirrorHandle } from '../readings/mirror-handle.js';
import { listen, type Listening } from './http.js';
import { isLoopback } from './own-name.js';
import { indexPage } from './index-page.js';
import { DocumentStore } from './store.js';
import { startSyncLoop, type SyncCost, type SyncLoopOptions } from './sync-loop.js';

/**
 * `lk serve`: the mirror read-only over HTTP (http.ts), its documents made by the commands' own functions
 * (documents.ts, store.ts), and with `--sync-every` the mirror kept fresh meanwhile (sync-loop.ts).
 */
export interface ServeOptions {
  dbPath: string;
  host: string;
  port: number;
  token: string | undefined;
  now: () => number;
  timeZone: string;
  sync?: SyncTurns | undefined;
  idleTimeoutMs?: number;
  /** lk serve --mcp: the MCP server answering /mcp (src/mcp/http.ts, made by the command), closed with the rest. */
  mcp?: { handle(request: IncomingMessage, response: ServerResponse): Promise<void>; close(): Promise<void> } | undefined;
  log(line: string): void;
}

/** --sync-every: its interval, a sync, how its waits pass, and the sync made just before (first) or the mirror's last recorded one. */
export type SyncTurns = Pick<SyncLoopOptions, 'everyMs' | 'first' | 'last' | 'sleep'> & { run(): Promise<SyncCost> };

export async function startServe(options: ServeOptions): Promise<Listening> {
  // Every address is public: the engine reads the mirror through the public projection for all of them.
  const mirror = new MirrorHandle(options.dbPath, 'public', 'lk serve');
  mirror.current(); // a missing or unreadable mirror is said now, before listening
  const host: ReadingHost = { audience: 'public', now: options.now, timeZone: () => options.timeZone, mirror: () => Promise.resolve(mirror) };
  const store = new DocumentStore({ mirror, host });
  let listening: Listening;
  try {
    listening = await listen({
      host: options.host,
      port: options.port,
      ownNamesOnly: isLoopback(options.host),
      token: options.token,
      ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs }),
      log: options.log,
      mcp: options.mcp && ((request, response) => options.mcp!.handle(request, response)),
      document: (path, query) => store.get(path, query),
      index: ({ authority, query }) =>
        store.read(async (reader) => indexPage({ authority, query, years: await reviewedYears(host), syncedAt: mirrorAge(reader).syncedAt })),
    });
  } catch (error) {
    mirror.close();
    await options.mcp?.close();
    throw error;
  }
  const { sync } = options;
  const loop =
    sync &&
    startSyncLoop({
      everyMs: sync.everyMs,
      sync: sync.run,
      first: sync.first,
      last: sync.last,
      sleep: sync.sleep,
      now: options.now,
      log: options.log,
    });
  return {
    url: listening.url,
    async close() {
      loop?.stop();
      await listening.close();
      await options.mcp?.close();
      mirror.close();
    },
  };
}
