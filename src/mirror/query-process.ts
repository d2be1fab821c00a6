import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LkError } from '../util/errors.js';
import { onInterrupt } from '../util/interrupt.js';
import { requireMirror, requireSqliteNode } from './open.js';
import type { QueryReply, QueryRequest } from './query-child.js';
import type { MirrorQueries } from './queries.js';
import { WriteRefused } from './read-only.js';

/**
 * The mirror, read in a process of its own (query-child.ts). node:sqlite runs a query synchronously: in lk's process
 * a runaway query (a recursive CTE that never ends) would hold the event loop, and with it the handlers of Ctrl-C and
 * SIGTERM and every timer, until it ended. Here lk stays free: a signal or --timeout kills the query process. A
 * worker thread would not do: terminating one waits for its native code to return, and so does process.exit().
 */

export type MirrorReader = {
  [Name in keyof MirrorQueries]: (...args: Parameters<MirrorQueries[Name]>) => Promise<ReturnType<MirrorQueries[Name]>>;
} & { close(): void };

/**
 * Every reading queries.ts answers, as a record: the typecheck fails when one is added there and not here, which a list
 * of names would let through (the reader would then lack a method its type promises).
 */
const QUERY_NAMES: Record<keyof MirrorQueries, true> = {
  mirrorAge: true,
  searchEntries: true,
  libraryItems: true,
  historyItems: true,
  tableItems: true,
  upcomingCalendar: true,
  entryWithHistory: true,
  statsSnapshot: true,
  schemaText: true,
  sql: true,
};

/** dist/mirror-query.cjs: beside the bundle (dist/cli.cjs), or the build's output when lk runs from its sources. */
function queryScript(): string {
  const besideBundle = fileURLToPath(new URL('./mirror-query.cjs', import.meta.url));
  return existsSync(besideBundle) ? besideBundle : fileURLToPath(new URL('../../dist/mirror-query.cjs', import.meta.url));
}

/** Opens the mirror at `path` read-only in a query process; each reading is stopped after `timeoutSeconds`. */
export function openMirrorReader(path: string, what: string, timeoutSeconds: number): MirrorReader {
  requireSqliteNode(what);
  requireMirror(path);
  // Its own process group: a Ctrl-C at the terminal reaches lk alone, which decides (exit 130) and kills this.
  const child = fork(queryScript(), [path], {
    detached: true,
    execArgv: [],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const forget = onInterrupt(() => child.kill('SIGKILL'));
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let ended: LkError | undefined;
  const end = (error: LkError) => {
    ended ??= error;
    for (const { reject } of pending.values()) reject(ended);
    pending.clear();
  };
  child.on('message', (reply: QueryReply) => {
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id);
    if (!reply.error) return waiting.resolve(reply.result);
    const { message, refused, exitCode, hint } = reply.error;
    waiting.reject(
      refused !== undefined ? new WriteRefused(refused) : exitCode !== undefined ? new LkError(message, exitCode, hint) : new Error(message),
    );
  });
  child.on('exit', (code, signal) => end(new LkError(`the mirror's query process ended (${signal ?? `exit ${code}`}) before answering`)));
  child.on('error', (error) => end(new LkError(`cannot start the mirror's query process: ${error.message}`)));

  const call = (name: keyof MirrorQueries, args: unknown[]) =>
    new Promise<unknown>((resolve, reject) => {
      if (ended) return reject(ended);
      const id = nextId++;
      const timer = setTimeout(() => {
        end(
          new LkError(
            `the query on the mirror ran longer than ${timeoutSeconds}s (--timeout) and was stopped`,
            1,
            'Give it longer with --timeout SECONDS, or ask for less (a LIMIT, a narrower WHERE).',
          ),
        );
        child.kill('SIGKILL');
      }, timeoutSeconds * 1000);
      const settle =
        <T>(then: (value: T) => void) =>
        (value: T) => {
          clearTimeout(timer);
          then(value);
        };
      pending.set(id, { resolve: settle(resolve), reject: settle(reject) });
      child.send({ id, name, args } satisfies QueryRequest);
    });

  const reader = {
    close() {
      forget();
      if (child.connected) child.disconnect();
    },
  } as MirrorReader;
  for (const name of Object.keys(QUERY_NAMES) as (keyof MirrorQueries)[]) {
    (reader as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => call(name, args);
  }
  return reader;
}
