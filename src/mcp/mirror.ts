import type { ApiReader } from '../api/client.js';
import type { Database } from '../mirror/database.js';
import { openMirrorReader } from '../mirror/query-process.js';
import type { ReadingHost } from '../readings/host.js';
import { MirrorHandle } from '../readings/mirror-handle.js';
import { LkError } from '../util/errors.js';
import { QueryPool } from './query-pool.js';

/** What the tools need from the run that serves them. */
export interface ToolHost {
  /** The mirror file (lk sync writes it). */
  mirrorPath: string;
  now(): number;
  /** --timeout: a query of the sql tool that runs longer is stopped (its query process killed). */
  timeoutSeconds: number;
  /** The time zone of a report when the mirror's profile names none (report/time-zone.ts: TZ, else UTC). */
  fallbackTimeZone: string;
  /** With --live: the API's reader, within the run's rate limit (listings paged by api/paginate.ts). Without: no request. */
  live: ApiReader | undefined;
}

/** Rows of one page of a query (keyed by its columns), and whether more followed. */
export interface RowsPage {
  columns: string[];
  rows: Record<string, unknown>[];
  more: boolean;
}

/**
 * The mirror as the tools read it. lk's own readings (search, listings, an entry, stats) run here on node:sqlite,
 * each on a connection of its own, so a sync between two calls is seen and they never wait behind an assistant's SQL.
 * That SQL runs in query processes (mirror/query-process.ts: read-only, writes refused, stopped after --timeout), at
 * most two at a time, so a runaway query never holds the server and a cancelled one is ended at once.
 */
export class McpMirror {
  private readonly pool: QueryPool;
  private readonly handle: MirrorHandle;
  /** The engine's host for the tools' readings: the owner's (lk mcp is the owner's own assistant), --live its API. */
  readonly readings: ReadingHost;

  constructor(private readonly host: ToolHost) {
    this.pool = new QueryPool(host.mirrorPath, () => openMirrorReader(host.mirrorPath, 'lk mcp', host.timeoutSeconds));
    this.handle = new MirrorHandle(host.mirrorPath, 'owner', 'lk mcp');
    const live = host.live;
    this.readings = {
      audience: 'owner',
      now: () => host.now(),
      timeZone: () => host.fallbackTimeZone,
      // Opened here first, so that a refusal (no mirror, an old one) reaches the model with its advice.
      mirror: () => Promise.resolve(withHint(() => (this.handle.current(), this.handle))),
      api: live && (() => Promise.resolve(live)),
    };
  }

  /**
   * One of lk's own readings, in this process, on a connection kept while the mirror is the same file: each statement
   * sees what a sync has written since (WAL), and a new file at the path (a mirror made again) gets a new connection.
   */
  read<T>(read: (db: Database) => T): T {
    return read(withHint(() => this.handle.current()));
  }

  /**
   * A query written by a person or an assistant: at most `take` rows after `skip`, in a query process, which skips
   * the first rows itself and sends no more than an answer may hold (`caps`, limits.ts: one value, all the rows' JSON). The
   * rows stream in batches and stop there (`cut` says whether more were left), so no more than a page is ever held.
   */
  async sql(query: string, skip: number, take: number, caps: { maxBytes: number; maxValueBytes: number }, signal: AbortSignal): Promise<RowsPage> {
    try {
      return await this.pool.run(async (reader) => {
        const found = await reader.query(query, { offset: skip, maxRows: take, ...caps, signal });
        const rows: Record<string, unknown>[] = [];
        for await (const batch of found) rows.push(...batch);
        return { columns: found.columns, rows, more: found.cut };
      }, signal);
    } catch (error) {
      throw hinted(error);
    }
  }

  /** Ends every query process at once. */
  close(): void {
    this.pool.close();
    this.handle.close();
  }
}

/** A tool error is one text: the refusal and its advice (`lk sync`, `--timeout`) together. */
function withHint<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw hinted(error);
  }
}

function hinted(error: unknown): unknown {
  return error instanceof LkError && error.hint !== undefined ? new Error(`${error.message}. ${error.hint}`, { cause: error }) : error;
}
