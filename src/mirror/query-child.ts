import { LkError } from '../util/errors.js';
import { loadSqlite, openForReading } from './open.js';
import { mirrorQueries, type MirrorQueries } from './queries.js';
import { WriteRefused } from './read-only.js';

/**
 * The query process (dist/mirror-query.cjs), started by query-process.ts: it opens the mirror named on its command
 * line read-only and answers each message { id, name, args } with { id, result } or { id, error }. SQLite runs here,
 * so that lk's own event loop stays free to stop it (a signal, --timeout) however long a query takes.
 */

export interface QueryRequest {
  id: number;
  name: keyof MirrorQueries;
  args: unknown[];
}

export interface QueryReply {
  id: number;
  result?: unknown;
  error?: { message: string; refused?: string; exitCode?: number; hint?: string | undefined };
}

const send = (reply: QueryReply) => process.send?.(reply);

// Once lk has gone, so has the reason to be.
process.on('disconnect', () => process.exit(0));

let queries: MirrorQueries | undefined;
let openError: unknown;
try {
  const { constants } = loadSqlite();
  queries = mirrorQueries(openForReading(process.argv[2] ?? ''), constants);
} catch (error) {
  openError = error;
}

process.on('message', ({ id, name, args }: QueryRequest) => {
  try {
    if (!queries) throw openError;
    const run = queries[name] as (...args: unknown[]) => unknown;
    send({ id, result: run(...args) });
  } catch (error) {
    const { message } = error as Error;
    if (error instanceof WriteRefused) send({ id, error: { message, refused: error.action } });
    else if (error instanceof LkError) send({ id, error: { message, exitCode: error.exitCode, hint: error.hint } });
    else send({ id, error: { message } });
  }
});
