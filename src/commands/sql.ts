import type { Command } from 'commander';
import type { Page } from '../api/paginate.js';
import type { SqlRows } from '../mirror/query-process.js';
import { DATA } from '../output/shape.js';
import { LkError, UsageError } from '../util/errors.js';
import { addCommand, defineCommand, operand } from './define.js';
import { flag } from './flags.js';
import { mirrorPath, openMirror } from './offline.js';
import { DB_FLAG } from './options.js';

/** `lk sql QUERY`: a read-only query on the mirror, in any output format; `--schema` prints the schema. */
const sqlCommand = defineCommand({
  name: 'sql',
  description: 'run a read-only SQL query on the mirror, output in any format; --schema prints the schema',
  output: DATA,
  operands: [operand('[query]', 'one statement that reads (writes and a second statement are refused, exit 2)')],
  flags: {
    ...DB_FLAG,
    schema: flag.toggle('--schema', 'print the schema of the mirror (tables, indexes, full-text tables, views)'),
  },
  examples: [
    'lk sql "SELECT phase, count(*) AS n FROM entries GROUP BY phase"',
    'lk sql "SELECT title, rating FROM library WHERE rating >= 9 ORDER BY title" --csv',
    "lk sql \"SELECT json_extract(json, '$.progress.pages') AS pages FROM entries WHERE domain = 'BOOKS'\" --json",
    'lk sql --schema',
    'lk sql --timeout 5 "SELECT …"   # a query still running after 5 s is stopped (exit 1); default 30',
    'lk sql "SELECT e.id, w.id FROM entries e JOIN works w ON w.id = e.work_id"   # keys id and id:1: no column lost',
    'lk sql "SELECT * FROM history" --ndjson | head -1   # rows stream: the first comes at once',
  ],
  async run(ctx, out, options, [query]) {
    if (options.schema) {
      if (query !== undefined) throw new UsageError('--schema takes no query');
      const { existsSync } = await import('node:fs');
      const { requireSqliteNode } = await import('../mirror/open.js');
      requireSqliteNode('lk sql');
      const path = await mirrorPath(ctx, options.db);
      if (!existsSync(path)) {
        const { SCHEMA } = await import('../mirror/schema.js');
        ctx.io.info(`lk: no mirror at ${path} yet; this is the schema lk sync creates`);
        await out.io.write(`${SCHEMA.trim()}\n`);
        return;
      }
      const { reader, first } = await openMirror(ctx, options.db, 'lk sql', (db) => db.schemaText());
      try {
        await out.io.write((await first)!);
      } finally {
        reader.close();
      }
      return;
    }
    if (query === undefined || query.trim() === '')
      throw new UsageError('lk sql needs a query, e.g. lk sql "SELECT count(*) FROM entries"', 'Or lk sql --schema for the tables.');
    const output = await out.outputOptions();
    const { requireOneStatement } = await import('../mirror/read-only.js');
    requireOneStatement(query); // before the mirror is opened (the query process checks it again, for lk mcp)
    const { reader: db, first } = await openMirror(ctx, options.db, 'lk sql', (reader) => reader.query(query));
    try {
      let result: SqlRows;
      try {
        result = (await first)!;
      } catch (error) {
        throw await sqlFailure(error);
      }
      const { renderListing } = await import('../output/formats/render.js');
      // Column names such as count(*) or json_extract(json, '$.a.b') are not dot paths: each reads its own key.
      const columns = result.columns.map((name) => ({
        header: name,
        path: name,
        value: (row: unknown) => (row as Record<string, unknown>)[name],
      }));
      await renderListing(pagesOfRows(result), { noun: ['row', 'rows'], columns }, output, { paged: false });
    } catch (error) {
      if (error instanceof LkError) throw error;
      throw await sqlFailure(error);
    } finally {
      db.close();
    }
  },
});

/** The rows as they come, each batch a page (written before the next is read). */
async function* pagesOfRows(result: SqlRows): AsyncGenerator<Page> {
  let page = 0;
  for await (const items of result) {
    page += 1;
    yield { items, page, hasMore: false, total: undefined, body: null, status: 200, headers: {} };
  }
}

/** A query's failure as the user should read it: a refusal to write or a failure of SQLite's, exit 2. */
async function sqlFailure(error: unknown): Promise<LkError> {
  if (error instanceof LkError) return error; // --timeout, the query process lost, more than one statement
  const { WriteRefused } = await import('../mirror/read-only.js');
  if (error instanceof WriteRefused)
    return new UsageError(`lk sql is read-only: refused ${error.action}`, 'Only queries that read (SELECT, WITH, PRAGMA that read) run here.');
  const message = (error as Error).message;
  // Writes to the mirror's own file, refused by SQLite itself (it is opened read-only).
  if (/readonly|read-only/i.test(message))
    return new UsageError(`lk sql is read-only: ${message}`, 'Only queries that read (SELECT, WITH, PRAGMA that read) run here.');
  return new UsageError(`the query failed: ${message}`);
}

export function registerSql(program: Command): void {
  addCommand(program, sqlCommand);
}
