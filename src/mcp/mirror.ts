import type { Database } from '../mirror/database.js';
import { openForReading } from '../mirror/open.js';
import { openMirrorReader, type MirrorReader } from '../mirror/query-process.js';
import { LkError } from '../util/errors.js';

/** What the tools need from the run that serves them. */
export interface ToolHost {
  /** The mirror file (lk sync writes it). */
  mirrorPath: string;
  now(): number;
  /** --timeout: a reading of the mirror that runs longer is stopped (its query process killed). */
  timeoutSeconds: number;
  /** The time zone of a report when the mirror's profile names none (report/time-zone.ts: TZ, else UTC). */
  fallbackTimeZone: string;
  /** With --live: a GET on the API within the run's rate limit, its JSON body. Without: undefined, no request. */
  live: ((path: string, query?: Record<string, string | undefined>) => Promise<unknown>) | undefined;
}

export type MirrorReads = MirrorReader;

/**
 * Runs `read` on the mirror in a query process of its own for this call alone, as lk search, lk sql and --offline
 * read it (mirror/query-process.ts: read-only, writes refused, stopped after --timeout): a sync between two calls is
 * seen, a runaway query never holds the server, and a missing mirror is a tool error that names lk sync.
 */
export async function withMirror<T>(host: ToolHost, read: (mirror: MirrorReads) => Promise<T>): Promise<T> {
  const reader = withHint(() => openMirrorReader(host.mirrorPath, 'lk mcp', host.timeoutSeconds));
  try {
    return await read(reader).catch((error: unknown) => {
      throw hinted(error);
    });
  } finally {
    reader.close();
  }
}

/** The mirror in this process, for lk's own queries (lk report's figures), as lk report and lk feed read it. */
export function withMirrorHere<T>(host: ToolHost, read: (db: Database) => T): T {
  const db = withHint(() => openForReading(host.mirrorPath));
  try {
    return read(db);
  } finally {
    db.close();
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
