import type { Command } from 'commander';
import type { Page } from '../api/paginate.js';
import type { SqlRows } from '../mirror/query-process.js';
import { DATA, TEXT } from '../output/shape.js';
import type { Context } from '../context.js';
import { listing, text } from '../output/result.js';
import { LkError, UsageError } from '../util/errors.js';
import { addCommand, defineCommand, operand } from './define.js';
import { flag } from './flags.js';
import { mirrorPath, openMirror } from './offline.js';
import { DB_FLAG } from './options.js';
import { plus, PROFILE } from './uses.js';
import { requireOneStatement, WriteRefused } from '../mirror/read-only.js';
import { existsSync } from 'node:fs';
import { requireSqliteNode } from '../mirror/open.js';
import { SCHEMA } from '../mirror/schema.js';

/** `lk sql QUERY`: a read-only query on the mirror, in any output format; `--schema` prints the schema. */
const sqlCommand = defineCommand({
  name: 'sql',
  uses: plus(PROFILE, 'timeout'),
  description: 'run a read-only SQL query on the mirror, output in any format; --schema prints the schema',
  // --schema prints the schema as SQLite keeps it: text, which no format, field or filter applies to.
  output: { ...DATA, when: { option: 'schema', shape: TEXT } },
  help: `
A BLOB is written as base64 (RFC 4648, padded), which decodes back to its bytes: in --json and --ndjson as
{"$base64": true, "encoded": "…"} (as sqlite-utils and Datasette write it), in csv, tsv and a table as the base64
text alone. One value (a TEXT or a BLOB) may take up to 64 MiB; a longer one fails the query, naming its column
(exit 2): select a part of it with substr() or its size with length().
`,
  operands: [operand('[query]', 'one statement that reads (writes and a second statement are refused, exit 2)')],
  flags: {
    ...DB_FLAG,
    schema: flag.toggle('--schema', 'print the schema of the mirror (tables, indexes, full-text tables, views)'),
  },
  examples: [
    'lk sql "SELECT phase, count(*) AS n FROM entries GROUP BY phase"',
    'lk sql --csv "SELECT title, rating FROM library WHERE rating >= 9"',
    'lk sql --json "SELECT id, json->>\'$.progress.pages\' AS pages FROM entries"',
    'lk sql --schema',
    'lk sql --timeout 5 "SELECT …"   # a query still running after 5 s is stopped (exit 1); default 30',
    'lk sql "SELECT e.id, w.id FROM entries e JOIN works w ON w.id = work_id"   # keys id and id:1: no column lost',
    'lk sql "SELECT * FROM history" --ndjson | head -1   # rows stream: the first comes at once',
    'lk sql "SELECT x\'00ff10\' AS b" --json   # a BLOB: {"b":{"$base64":true,"encoded":"AP8Q"}}',
  ],
  async run(ctx, out, options, [query]) {
    if (options.schema) {
      if (query !== undefined) throw new UsageError('--schema takes no query');
      return text(await schemaOf(ctx, options.db));
    }
    if (query === undefined || query.trim() === '')
      throw new UsageError('lk sql needs a query, e.g. lk sql "SELECT count(*) FROM entries"', 'Or lk sql --schema for the tables.');
    await out.outputOptions(); // -o and --fields checked before the mirror is opened
    requireOneStatement(query); // before the mirror is opened (the query process checks it again, for lk mcp)
    const { reader, first } = await openMirror(ctx, options.db, 'lk sql', (db) => db.query(query));
    ctx.closeWhenDone(() => reader.close());
    let rows: SqlRows;
    try {
      rows = (await first)!;
    } catch (error) {
      throw await sqlFailure(error);
    }
    // Column names such as count(*) or json_extract(json, '$.a.b') are not dot paths: each reads its own key.
    const columns = rows.columns.map((name) => ({
      header: name,
      path: name,
      value: (row: unknown) => (row as Record<string, unknown>)[name],
    }));
    return listing(pagesOfRows(rows), { noun: ['row', 'rows'], columns }, false);
  },
});

/** The schema of the mirror at --db, or the one lk sync creates when there is no mirror there yet. */
async function schemaOf(ctx: Context, db: string | undefined): Promise<string> {
  requireSqliteNode('lk sql');
  const path = await mirrorPath(ctx, db);
  if (!existsSync(path)) {
    ctx.io.info(`lk: no mirror at ${path} yet; this is the schema lk sync creates`);
    return `${SCHEMA.trim()}\n`;
  }
  const { reader, first } = await openMirror(ctx, db, 'lk sql', (opened) => opened.schemaText());
  try {
    return (await first)!;
  } finally {
    reader.close();
  }
}

/**
 * The rows as they come, each batch a page: the wrapper writes one before the next is asked for, so a slow reader
 * holds the query back and nothing is gathered. A failure on the way (a --timeout, SQLite's) reads as sqlFailure says.
 */
async function* pagesOfRows(rows: SqlRows): AsyncGenerator<Page> {
  let page = 0;
  try {
    for await (const items of rows) {
      page += 1;
      yield { items, page, hasMore: false, total: undefined, body: null, status: 200, headers: {} };
    }
  } catch (error) {
    throw await sqlFailure(error);
  }
}

/** A query's failure as the user should read it: a refusal to write or a failure of SQLite's, exit 2. */
async function sqlFailure(error: unknown): Promise<LkError> {
  if (error instanceof LkError) return error; // --timeout, the query process lost, more than one statement
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
