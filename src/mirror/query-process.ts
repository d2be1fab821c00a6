import { fork, type ChildProcess, type ForkOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isSea } from 'node:sea';
import { fileURLToPath } from 'node:url';
import { Base64Value } from '../util/base64-value.js';
import { LkError } from '../util/errors.js';
import { onInterrupt } from '../util/interrupt.js';
import { uniqueColumnKeys } from './column-keys.js';
import { requireMirror, requireSqliteNode } from './open.js';
import type { QueryReply, QueryRequest, RowLimits } from './query-child.js';
import type { MirrorQueries } from './queries.js';
import { WriteRefused } from './read-only.js';

/**
 * The mirror read in a process of its own (query-child.ts), for SQL that a person or an assistant wrote (lk sql, the
 * mcp sql tool). node:sqlite runs a query synchronously and has no way to interrupt one: in lk's process a runaway
 * query (a recursive CTE that never ends) would hold the event loop, and with it Ctrl-C, SIGTERM and every timer.
 * Here lk stays free, and a signal, --timeout, close() or an AbortSignal kills the query process at once. A worker
 * thread would not do: terminating one waits for its native code to return, and so does process.exit(). The query
 * process also watches lk, and ends itself when lk has gone, however it went (SIGKILL included).
 *
 * The interface (openMirrorReader):
 * - `query(sql, { offset, maxRows, maxBytes, maxValueBytes, signal })` → SqlRows: the statement's columns (unique
 *   keys, column-keys.ts), then its rows as objects (a BLOB as a Base64Value, sql-values.ts), in batches, as SQLite steps to them; two batches at most are on their way, so a slow reader (a pipe,
 *   `| head -1`) holds SQLite back and memory stays flat. Leaving the loop (break) stops the statement. With maxRows
 *   the rows stop there and `cut` tells, once the rows have ended, whether more were left unread.
 * - `sql(sql, options)`: the same rows gathered in one array (for a capped answer: give maxRows).
 * - lk sql's own readings by name (mirrorAge, schemaText: queries.ts), answered whole.
 * - A reading fails with an LkError when it works longer than `timeoutSeconds` (time lk spent waiting for its rows:
 *   not the time a slow reader took), when the process ends (close(), a signal), or when its AbortSignal fires; the
 *   last two end the reader as a whole (the process is killed: a query cannot be stopped otherwise). More than one
 *   statement is refused (LkError, exit 2) before anything runs; a write with WriteRefused.
 * - `close()` kills the process at once, a query running or not. One statement is read at a time.
 */

export interface SqlRows extends AsyncIterable<Record<string, unknown>[]> {
  /** A key per column, all different: a second `id` is `id:1` (column-keys.ts). */
  readonly columns: string[];
  /** Known once the rows have ended: true when maxRows left rows unread. */
  readonly cut: boolean;
}

export interface QueryOptions extends RowLimits {
  /** Aborting ends the query at once, and with it the reader. */
  signal?: AbortSignal | undefined;
}

type Named = {
  [Name in keyof MirrorQueries]: (...args: Parameters<MirrorQueries[Name]>) => Promise<ReturnType<MirrorQueries[Name]>>;
};

export type MirrorReader = Named & {
  query(sql: string, options?: QueryOptions): Promise<SqlRows>;
  sql(sql: string, options?: QueryOptions): Promise<Record<string, unknown>[]>;
  close(): void;
};

/**
 * Every reading queries.ts answers, as a record: the typecheck fails when one is added there and not here, which a list
 * of names would let through (the reader would then lack a method its type promises).
 */
const QUERY_NAMES: Record<keyof MirrorQueries, true> = {
  mirrorAge: true,
  schemaText: true,
};

/**
 * dist/mirror-query.cjs: beside the bundle (dist/cli.cjs), or the build's output when lk runs from its sources. In
 * the single file (scripts/sea.mjs) there is no script to give Node: fork starts the executable itself, and
 * LK_SEA_ROLE=mirror-query tells its entry (scripts/sea-main.cjs) to be the query process, from its assets.
 */
function startQueryProcess(args: string[], options: ForkOptions): ChildProcess {
  if (isSea()) return fork('mirror-query.cjs', args, { ...options, env: { ...process.env, LK_SEA_ROLE: 'mirror-query' } });
  return fork(queryScript(), args, options);
}

function queryScript(): string {
  const besideBundle = fileURLToPath(new URL('./mirror-query.cjs', import.meta.url));
  return existsSync(besideBundle) ? besideBundle : fileURLToPath(new URL('../../dist/mirror-query.cjs', import.meta.url));
}

const timedOut = (seconds: number) =>
  new LkError(
    `the query on the mirror ran longer than ${seconds}s (--timeout) and was stopped`,
    1,
    'Give it longer with --timeout SECONDS, or ask for less (a LIMIT, a narrower WHERE).',
  );

function replyError({ message, refused, exitCode, hint }: NonNullable<QueryReply['error']>): Error {
  if (refused !== undefined) return new WriteRefused(refused);
  return exitCode !== undefined ? new LkError(message, exitCode, hint) : new Error(message);
}

/** A value as the query process sent it: a BLOB comes as { $base64, encoded } (sql-values.ts), the only object. */
function valueOf(sent: unknown): unknown {
  return sent !== null && typeof sent === 'object' ? new Base64Value((sent as { encoded: string }).encoded) : sent;
}

/** Opens the mirror at `path` read-only in a query process; each reading is stopped after `timeoutSeconds`. */
export function openMirrorReader(path: string, what: string, timeoutSeconds: number): MirrorReader {
  requireSqliteNode(what);
  requireMirror(path);
  // Its own process group: a Ctrl-C at the terminal reaches lk alone, which decides (exit 130) and kills this.
  const child = startQueryProcess([path, String(process.pid)], {
    detached: true,
    execArgv: [],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  const forget = onInterrupt(kill);
  const listeners = new Map<number, (reply: QueryReply) => void>();
  let nextId = 0;
  let ended: Error | undefined;
  const failers = new Set<(error: Error) => void>();
  const end = (error: Error) => {
    ended ??= error;
    for (const fail of failers) fail(ended);
    failers.clear();
    kill();
  };
  child.on('message', (reply: QueryReply) => listeners.get(reply.id)?.(reply));
  child.on('exit', (code, signal) => end(new LkError(`the mirror's query process ended (${signal ?? `exit ${code}`}) before answering`)));
  child.on('error', (error) => end(new LkError(`cannot start the mirror's query process: ${error.message}`)));

  /** Waits for the next reply to `id`, within what is left of the time budget (shared by every wait of one call). */
  const waiter = (id: number, signal: AbortSignal | undefined) => {
    let budget = timeoutSeconds * 1000;
    const replies: QueryReply[] = [];
    let wake: (() => void) | undefined;
    listeners.set(id, (reply) => {
      replies.push(reply);
      wake?.();
    });
    const abort = () => end(new LkError(`the query on the mirror was cancelled`));
    signal?.addEventListener('abort', abort, { once: true });
    return {
      next: () =>
        new Promise<QueryReply>((resolve, reject) => {
          if (ended) return reject(ended);
          if (signal?.aborted) {
            abort();
            return reject(ended!);
          }
          const ready = replies.shift();
          if (ready) return resolve(ready);
          const started = performance.now();
          const fail = (error: Error) => finish(() => reject(error));
          const timer = setTimeout(() => end(timedOut(timeoutSeconds)), budget);
          const finish = (then: () => void) => {
            clearTimeout(timer);
            budget -= performance.now() - started;
            failers.delete(fail);
            wake = undefined;
            then();
          };
          failers.add(fail);
          wake = () => finish(() => resolve(replies.shift()!));
        }),
      done() {
        listeners.delete(id);
        signal?.removeEventListener('abort', abort);
      },
    };
  };

  const request = (message: QueryRequest) => {
    if (!ended) child.send(message);
  };

  const call = async (name: keyof MirrorQueries, args: unknown[]) => {
    const id = nextId++;
    const replies = waiter(id, undefined);
    try {
      request({ id, name, args });
      const reply = await replies.next();
      if (reply.error) throw replyError(reply.error);
      return reply.result;
    } finally {
      replies.done();
    }
  };

  const query = async (sql: string, options: QueryOptions = {}): Promise<SqlRows> => {
    const id = nextId++;
    const replies = waiter(id, options.signal);
    const { offset, maxRows, maxBytes, maxValueBytes } = options;
    request({ id, sql, offset, maxRows, maxBytes, maxValueBytes });
    let first: QueryReply;
    try {
      first = await replies.next();
      if (first.error) throw replyError(first.error);
    } catch (error) {
      replies.done();
      throw error;
    }
    const columns = first.columns ?? [];
    const keys = uniqueColumnKeys(columns);
    let cut = false;
    async function* batches(): AsyncGenerator<Record<string, unknown>[]> {
      let finished = false;
      try {
        for (;;) {
          const reply = await replies.next();
          if (reply.error) throw replyError(reply.error);
          if (reply.end) {
            finished = true;
            cut = reply.end.cut;
            return;
          }
          request({ id, more: true });
          yield (reply.rows ?? []).map((row) => {
            const record: Record<string, unknown> = {};
            for (let i = 0; i < keys.length; i++) record[keys[i]!] = valueOf(row[i]);
            return record;
          });
        }
      } finally {
        if (!finished) request({ id, stop: true });
        replies.done();
      }
    }
    return {
      columns: keys,
      get cut() {
        return cut;
      },
      [Symbol.asyncIterator]: batches,
    };
  };

  const reader = {
    query,
    async sql(sql: string, options?: QueryOptions) {
      const rows: Record<string, unknown>[] = [];
      for await (const batch of await query(sql, options)) rows.push(...batch);
      return rows;
    },
    close() {
      forget();
      ended ??= new LkError('the mirror reader is closed');
      kill();
      // Killed: nothing is left to wait for, so lk may end before the process is reaped.
      child.unref();
      child.channel?.unref();
    },
  } as MirrorReader;
  for (const name of Object.keys(QUERY_NAMES) as (keyof MirrorQueries)[]) {
    (reader as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => call(name, args);
  }
  return reader;
}
