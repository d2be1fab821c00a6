import { Worker } from 'node:worker_threads';
import { LkError } from '../util/errors.js';
import { loadSqlite, openForReading } from './open.js';
import { mirrorQueries, type MirrorQueries } from './queries.js';
import { readOnlyRows, WriteRefused } from './read-only.js';
import { capFailure, DEFAULT_VALUE_CAP, limitValueLength, sendableRow } from './sql-values.js';

/**
 * The query process (dist/mirror-query.cjs), started by query-process.ts: it opens the mirror named on its command
 * line read-only and answers each message (QueryRequest below). SQLite runs here, on this process's main thread, so
 * that lk's own event loop stays free to stop it (a signal, --timeout) however long a query takes.
 *
 * No query outlives lk: a query holds this main thread, so a watcher thread checks every WATCH_MS that lk is still
 * its parent (once lk has died, however — SIGKILL included — this process has another) and then ends this process
 * at once with SIGKILL (process.exit() would wait for SQLite to return). While idle, 'disconnect' does the same.
 */

export type QueryRequest =
  /** A reading of lk's by name (queries.ts), answered whole: { id, result } or { id, error }. */
  | { id: number; name: keyof MirrorQueries; args: unknown[] }
  /** The user's statement: { id, columns }, then { id, rows } batches, each after a `more`, then { id, end }. */
  | ({ id: number; sql: string } & RowLimits)
  /** One more batch of rows may be sent (two may be on their way at a time). */
  | { id: number; more: true }
  /** Stop reading that statement (the reader has what it wants). */
  | { id: number; stop: true };

/** How much of a statement's rows is sent (sql-values.ts says how a value is sent, and caps it). */
export interface RowLimits {
  /** Rows skipped (not sent) before the first one sent. */
  offset?: number | undefined;
  /** Rows sent at most; `end.cut` then says whether more were left. */
  maxRows?: number | undefined;
  /** Bytes of JSON the rows sent may take in all: the rows stop before the one that would pass it (`cut`). */
  maxBytes?: number | undefined;
  /** The largest value (bytes of a TEXT or a BLOB) sent; a larger one fails the statement, naming its column. */
  maxValueBytes?: number | undefined;
}

export interface QueryReply {
  id: number;
  result?: unknown;
  columns?: string[];
  rows?: unknown[][];
  end?: { cut: boolean };
  error?: { message: string; refused?: string; exitCode?: number; hint?: string | undefined };
}

/** Batches in flight per statement: one being written by lk while the next is read here. */
const BATCHES_IN_FLIGHT = 2;
const FIRST_BATCH_ROWS = 16;
const MAX_BATCH_ROWS = 64;
/**
 * A batch is sent once its rows take this many bytes, whatever their count: lk writes a batch in one go, and a batch
 * of big values (BLOBs of megabytes) would hold its event loop, and with it a signal, for as long.
 */
const MAX_BATCH_BYTES = 1024 * 1024;
/** A batch is sent once it has waited this long for more rows, so that a slow query still shows its first rows. */
const BATCH_WAIT_MS = 50;
const WATCH_MS = 100;

new Worker(
  `const { ppid, pid } = require('node:worker_threads').workerData;
   setInterval(() => { if (process.ppid !== ppid) process.kill(pid, 'SIGKILL'); }, ${WATCH_MS});`,
  {
    eval: true,
    workerData: { ppid: Number(process.argv[3] ?? process.ppid), pid: process.pid },
    // It holds a timer and nothing else: the least heap V8 allows.
    resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 8, codeRangeSizeMb: 1 },
  },
).unref();
process.on('disconnect', () => process.kill(process.pid, 'SIGKILL'));

// A reply that cannot go (lk has gone: `| head -1` ended it) ends this process like 'disconnect' does.
const send = (reply: QueryReply) => process.send?.(reply, undefined, {}, (error: Error | null) => error && process.kill(process.pid, 'SIGKILL'));

function sendError(id: number, error: unknown): void {
  const { message } = error as Error;
  if (error instanceof WriteRefused) send({ id, error: { message, refused: error.action } });
  else if (error instanceof LkError) send({ id, error: { message, exitCode: error.exitCode, hint: error.hint } });
  else send({ id, error: { message } });
}

let queries: MirrorQueries | undefined;
let constants: Record<string, number> = {};
let openError: unknown;
const db = (() => {
  try {
    constants = loadSqlite().constants;
    const opened = openForReading(process.argv[2] ?? '');
    queries = mirrorQueries(opened);
    return opened;
  } catch (error) {
    openError = error;
    return undefined;
  }
})();

/** Per statement being read: how many batches may still be sent, and who waits for more. */
const streams = new Map<number, { credit: number; stopped: boolean; wake?: () => void }>();

async function stream(id: number, sql: string, limits: RowLimits): Promise<void> {
  if (!db) throw openError;
  const { offset = 0, maxRows, maxBytes } = limits;
  const maxValueBytes = limits.maxValueBytes ?? DEFAULT_VALUE_CAP;
  // SQLite itself refuses a longer value where Node lets lk say so (24 and later): it is never made in memory.
  const restoreLength = limitValueLength(db, maxValueBytes);
  let result: ReturnType<typeof readOnlyRows>;
  try {
    result = readOnlyRows(db, constants, sql);
  } catch (error) {
    restoreLength();
    throw error;
  }
  const state: { credit: number; stopped: boolean; wake?: () => void } = { credit: BATCHES_IN_FLIGHT, stopped: false };
  streams.set(id, state);
  try {
    send({ id, columns: result.columns });
    let batch: unknown[][] = [];
    let size = FIRST_BATCH_ROWS;
    let since = performance.now();
    let skipped = 0;
    let count = 0;
    let bytes = 0;
    let batchBytes = 0;
    let cut = false;
    const flush = async () => {
      send({ id, rows: batch });
      batch = [];
      batchBytes = 0;
      size = Math.min(size * 4, MAX_BATCH_ROWS);
      state.credit -= 1;
      while (state.credit <= 0 && !state.stopped) await new Promise<void>((resolve) => (state.wake = resolve));
      since = performance.now();
    };
    while (!state.stopped) {
      const next = result.rows.next();
      if (next.done) break;
      if (skipped < offset) {
        skipped += 1;
        continue;
      }
      if (maxRows !== undefined && count >= maxRows) {
        cut = true;
        break;
      }
      const row = sendableRow(next.value, result.columns, maxValueBytes);
      if (maxBytes !== undefined) {
        bytes += row.bytes;
        if (bytes > maxBytes && count === 0) throw new Error(rowTooLarge(maxBytes));
        if (bytes > maxBytes) {
          cut = true;
          break;
        }
      }
      batch.push(row.values);
      batchBytes += row.bytes;
      count += 1;
      if (batch.length >= size || batchBytes >= MAX_BATCH_BYTES || performance.now() - since > BATCH_WAIT_MS) await flush();
    }
    if (state.stopped) return;
    if (batch.length > 0) send({ id, rows: batch });
    send({ id, end: { cut } });
  } finally {
    streams.delete(id);
    result.finish();
    restoreLength();
  }
}

const rowTooLarge = (maxBytes: number) =>
  `one row takes more than ${maxBytes / 1024} KB of JSON; select fewer or shorter columns (substr(), length())`;

let statements = Promise.resolve();

process.on('message', (request: QueryRequest) => {
  const { id } = request;
  if ('more' in request || 'stop' in request) {
    const state = streams.get(id);
    if (!state) return;
    if ('stop' in request) state.stopped = true;
    else state.credit += 1;
    state.wake?.();
    return;
  }
  if ('sql' in request) {
    // One statement at a time: the read-only rules are set on the database for as long as its rows are read.
    statements = statements.then(() =>
      stream(id, request.sql, request).catch((error: unknown) => sendError(id, capFailure(error, request.maxValueBytes ?? DEFAULT_VALUE_CAP))),
    );
    return;
  }
  try {
    if (!queries) throw openError;
    const run = queries[request.name] as (...args: unknown[]) => unknown;
    send({ id, result: run(...request.args) });
  } catch (error) {
    sendError(id, error);
  }
});
