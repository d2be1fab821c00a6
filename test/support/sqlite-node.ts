import { createRequire } from 'node:module';
import { describe, it } from 'vitest';
import { nodeHasSqlite } from '../../src/mirror/open.js';
import { MIRROR_NODE } from '../../src/util/newer-node.js';

/**
 * The mirror (lk sync, the --offline reads, lk sql, serve, mcp, feed, report) needs node:sqlite, which Node has from
 * 22.13; lk itself runs on Node 20.18 too. A test that needs the mirror is declared with `describeWithSqlite` (or
 * `itWithSqlite`): on an older Node it is skipped with the reason in its name, and the last line of `npm test`
 * (test/support/skip-summary.ts) counts it. Unlike a missing outside tool, LK_REQUIRE_OUTSIDE_TOOLS=1 does not turn
 * this skip into a failure: CI runs the mirror's tests on Node 20 on purpose (.ci/run), and on 22, 24 and 26 where
 * these run.
 * What lk says on such a Node is tested for real, by `describeWithoutSqlite` (declared there only).
 */

/** The Node that brought node:sqlite without a flag (lk's own refusal names it). */
export const SQLITE_NODE = MIRROR_NODE;

/** The marker a skipped suite's name carries; the skip summary reads it back. */
export const SQLITE_SKIP_MARKER = `skipped, needs node:sqlite: Node ${SQLITE_NODE}+`;

/** Whether this Node has node:sqlite (as lk decides it: src/mirror/open.ts). */
export const hasSqlite = nodeHasSqlite();

/** A describe block that needs node:sqlite: run where this Node has it, else skipped with the reason in its name. */
export function describeWithSqlite(name: string, body: () => void): void {
  if (hasSqlite) describe(name, body);
  else describe.skip(`${name} [${SQLITE_SKIP_MARKER}]`, body);
}

/** One test that needs node:sqlite, in a file whose other tests run on every Node. */
export function itWithSqlite(name: string, fn: () => Promise<void> | void, timeout?: number): void {
  if (hasSqlite) it(name, fn, timeout);
  else it.skip(`${name} [${SQLITE_SKIP_MARKER}]`, fn);
}

/** Tests of what lk says on a Node without node:sqlite: declared there only (a Node that has it cannot show it). */
export function describeWithoutSqlite(name: string, body: () => void): void {
  if (!hasSqlite) describe(name, body);
}

/** One test of what lk says on a Node without node:sqlite, among tests that run on every Node. */
export function itWithoutSqlite(name: string, fn: () => Promise<void> | void, timeout?: number): void {
  if (!hasSqlite) it(name, fn, timeout);
}

/**
 * The rows `query` gives (with `params` bound) on the mirror at `path`, read with node:sqlite itself (read-only), with
 * no lk in between: what a test checks lk's writes and figures against, at the cost of a statement instead of an lk
 * sql run (a query process). Rows are plain objects.
 */
export function mirrorRows(path: string, query: string, ...params: unknown[]): Record<string, unknown>[] {
  const { DatabaseSync } = createRequire(import.meta.url)('node:sqlite') as {
    DatabaseSync: new (
      path: string,
      options: { readOnly: boolean },
    ) => {
      prepare(sql: string): { all(...params: unknown[]): Record<string, unknown>[] };
      close(): void;
    };
  };
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return db
      .prepare(query)
      .all(...params)
      .map((row) => ({ ...row }));
  } finally {
    db.close();
  }
}
