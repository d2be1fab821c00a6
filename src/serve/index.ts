import type { IncomingMessage, ServerResponse } from 'node:http';
import { mirrorAge } from '../mirror/read.js';
import type { ReportModule } from './documents.js';
import { listen, type Listening } from './http.js';
import { isLoopback } from './own-name.js';
import { indexPage } from './index-page.js';
import { MirrorConnection } from './connection.js';
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

/** --sync-every: its interval, a sync, and the sync made just before (first) or the mirror's last recorded one. */
export type SyncTurns = Pick<SyncLoopOptions, 'everyMs' | 'first' | 'last'> & { run(): Promise<SyncCost> };

export async function startServe(options: ServeOptions): Promise<Listening> {
  const mirror = new MirrorConnection(options.dbPath);
  let report: Promise<ReportModule> | undefined;
  const loadReport = () => (report ??= import('../report/index.js'));
  const store = new DocumentStore({ mirror, now: options.now, timeZone: options.timeZone, report: loadReport });
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
        store.read(async (reader) => {
          const span = (await loadReport()).datedSpan(reader);
          const years: number[] = [];
          if (span) for (let year = Number(span.last.slice(0, 4)); year >= Number(span.first.slice(0, 4)); year -= 1) years.push(year);
          return indexPage({ authority, query, years, syncedAt: mirrorAge(reader).syncedAt });
        }),
    });
  } catch (error) {
    mirror.close();
    await options.mcp?.close();
    throw error;
  }
  const { sync } = options;
  const loop =
    sync && startSyncLoop({ everyMs: sync.everyMs, sync: sync.run, first: sync.first, last: sync.last, now: options.now, log: options.log });
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
