import { UsageError } from '../util/errors.js';
import type { Database, Statement } from './open.js';
import { statementCore, textAfterFirstStatement } from './statement-text.js';

/**
 * `lk sql` reads and nothing else. The mirror is opened read-only, which stops writes to its own file; what that
 * leaves open (VACUUM INTO another file, ATTACH, temporary tables, PRAGMA settings) is refused here, by SQLite:
 * - Node 24 and later: an authorizer (DatabaseSync#setAuthorizer) allows reading actions only, while the statement
 *   is compiled and while it runs (VACUUM INTO attaches its target file as it runs, and is refused then);
 * - Node 22, which has no authorizer: the statement's compiled program (EXPLAIN) is refused when it opens a write
 *   transaction on any database, begins a transaction or savepoint, vacuums, or attaches a file (sqlite_attach), and
 *   a PRAGMA given a value is judged by its name as the authorizer judges it, before it runs.
 * On every line: one statement only, and the PRAGMAs that act without a value (wal_checkpoint…) are refused by name.
 * Either way load_extension() stays off (node:sqlite's default). test/mirror/sql-safety.test.ts runs on each line.
 */

/** A statement lk sql refuses: what it would have done, as SQLite names it (an authorizer action, an opcode). */
export class WriteRefused extends Error {
  constructor(readonly action: string) {
    super(`not a read: ${action}`);
  }
}

interface Authorizing {
  setAuthorizer?(callback: ((action: number, ...args: (string | null)[]) => number) | null): void;
}

type Constants = Record<string, number>;

/** A result of the user's statement: its column names in order, and its rows (arrays) as SQLite steps to them. */
export interface ReadOnlyRows {
  columns: string[];
  rows: Iterator<unknown[]>;
  /** Stops reading (the statement is reset) and lifts the read-only rules: call it once the rows are read. */
  finish(): void;
}

/**
 * Prepares one statement of the user's on `db` (read-only) under the rules above; its rows are read as they are
 * asked for. More than one statement is refused (exit 2) before anything is compiled.
 */
export function readOnlyRows(db: Database, constants: Constants, sql: string): ReadOnlyRows {
  requireOneStatement(sql);
  refuseActingPragma(sql);
  const authorizing = db as Database & Authorizing;
  if (typeof authorizing.setAuthorizer !== 'function') {
    refuseWritingProgram(db, sql);
    return rowsOf(db, sql, () => {});
  }
  let refused: string | undefined;
  const lift = () => authorizing.setAuthorizer!(null);
  authorizing.setAuthorizer(readingAuthorizer(db, constants, (action) => (refused ??= action)));
  const refusedOr = (error: unknown) => (refused !== undefined ? new WriteRefused(refused) : error);
  try {
    const rows = rowsOf(db, sql, lift);
    return {
      ...rows,
      rows: {
        next() {
          try {
            return rows.rows.next();
          } catch (error) {
            throw refusedOr(error);
          }
        },
      },
    };
  } catch (error) {
    lift();
    throw refusedOr(error);
  }
}

/**
 * The rows as arrays with the column names beside them: an object per row would keep one value of two columns that
 * share a name (e.id and w.id are both "id"). Node 22.13 to 22.15 lack columns() and setReturnArrays(): there the rows
 * are objects, whose keys are all the names SQLite gives, and a statement whose columns share a name is refused
 * (exit 2) rather than answered with a value missing.
 */
function rowsOf(db: Database, sql: string, finish: () => void): ReadOnlyRows {
  const statement = db.prepare(sql) as Statement & { columns?(): { name: string }[]; setReturnArrays?(on: boolean): void };
  if (typeof statement.columns === 'function' && typeof statement.setReturnArrays === 'function') {
    statement.setReturnArrays(true);
    const columns = statement.columns().map((column) => column.name);
    const iterator = statement.iterate() as unknown as Iterator<unknown[]>;
    return { columns, rows: iterator, finish: () => (iterator.return?.(), finish()) };
  }
  const iterator = statement.iterate();
  const first = iterator.next();
  const columns = first.done ? [] : Object.keys(first.value);
  const count = resultColumnCount(db, sql);
  if (count !== undefined && count > columns.length) {
    iterator.return?.();
    throw new UsageError(
      `columns of this query share a name, and Node ${process.versions.node} keeps one value per name (${count} columns, ${columns.length} kept)`,
      'Name them apart (SELECT e.id AS entry_id, w.id AS work_id …), or run lk on Node 22.16 or later, which keeps them all (id, id:1).',
    );
  }
  let pending: IteratorResult<Record<string, unknown>> | undefined = first;
  const rows: Iterator<unknown[]> = {
    next() {
      const current = pending ?? iterator.next();
      pending = undefined;
      return current.done ? { done: true, value: undefined } : { done: false, value: columns.map((name) => current.value[name]) };
    },
  };
  return { columns, rows, finish: () => (iterator.return?.(), finish()) };
}

/** How many columns the statement's rows have: the ResultRow instruction of its program (EXPLAIN), when it has one. */
function resultColumnCount(db: Database, sql: string): number | undefined {
  try {
    const row = db
      .prepare(`EXPLAIN ${sql}`)
      .all()
      .find((instruction) => instruction.opcode === 'ResultRow');
    return row === undefined ? undefined : Number(row.p2);
  } catch {
    return undefined; // EXPLAIN of an EXPLAIN: its own columns, never shared
  }
}

/** Exit 2 when the text holds a second statement: node:sqlite would run the first and drop the rest unsaid. */
export function requireOneStatement(sql: string): void {
  const more = textAfterFirstStatement(sql);
  if (more === undefined) return;
  throw new UsageError(
    `lk sql runs one statement; this text holds another after the first \`;\`: ${more.length > 40 ? `${more.slice(0, 40)}…` : more}`,
    'Run each statement with its own lk sql (a trailing `;` and comments are fine).',
  );
}

/**
 * PRAGMAs that act when named alone (no argument), which the rules below would let through as reads: a checkpoint
 * moves the WAL into the file, optimize may run ANALYZE. Refused by name on every Node line.
 */
const ACTING_PRAGMAS = new Set(['wal_checkpoint', 'optimize', 'incremental_vacuum', 'shrink_memory']);

/** `PRAGMA [schema.]name [= value | (value)]`: the name and the value, if any. */
function pragmaOf(sql: string): { name: string; value: string | undefined } | undefined {
  const match = /^PRAGMA\s+(?:(?:\w+|"[^"]*"|`[^`]*`|\[[^\]]*\])\s*\.\s*)?(\w+)\s*(?:=\s*([^]*?)|\(\s*([^]*?)\s*\))?\s*$/i.exec(statementCore(sql));
  if (!match) return undefined;
  const value = match[2] ?? match[3];
  return { name: match[1]!.toLowerCase(), value: value === undefined || value === '' ? undefined : value };
}

function refuseActingPragma(sql: string): void {
  const pragma = pragmaOf(sql);
  if (pragma && pragma.value === undefined && ACTING_PRAGMAS.has(pragma.name)) throw new WriteRefused(`PRAGMA ${pragma.name}`);
}

/**
 * PRAGMAs that only read when given an argument (table_info(entries), index_list(…)): SQLite's own list, the ones whose
 * table-valued form takes a hidden `arg`. With an argument, any other PRAGMA sets something (user_version=5).
 */
function pragmasReadingWithArgument(db: Database): Set<string> {
  const rows = db
    .prepare(
      `SELECT p.name FROM pragma_pragma_list p
       WHERE EXISTS (SELECT 1 FROM pragma_table_xinfo('pragma_' || p.name) x WHERE x.name = 'arg' AND x.hidden)`,
    )
    .all();
  return new Set(rows.map((row) => String(row.name)));
}

function readingAuthorizer(db: Database, constants: Constants, refuse: (action: string) => void) {
  const reading = pragmasReadingWithArgument(db);
  const names = new Map(Object.entries(constants).map(([name, code]) => [code, name.replace(/^SQLITE_/, '')]));
  const ok = constants.SQLITE_OK!;
  const deny = (action: string) => {
    refuse(action);
    return constants.SQLITE_DENY!;
  };
  return (action: number, first: string | null, second: string | null): number => {
    switch (action) {
      case constants.SQLITE_SELECT:
      case constants.SQLITE_READ:
      case constants.SQLITE_RECURSIVE:
        return ok;
      case constants.SQLITE_FUNCTION:
        return second === 'load_extension' ? deny('load_extension()') : ok;
      case constants.SQLITE_PRAGMA:
        return second === null || reading.has(String(first).toLowerCase()) ? ok : deny(`PRAGMA ${first} = ${second}`);
      default:
        return deny([names.get(action) ?? `action ${action}`, first].filter(Boolean).join(' '));
    }
  };
}

/**
 * Node 22: what the statement's program would do, read from EXPLAIN (sqlite.org/opcode.html), and a PRAGMA given a
 * value read from its text: the same answers as the authorizer gives on later lines.
 */
function refuseWritingProgram(db: Database, sql: string): void {
  const pragma = pragmaOf(sql);
  if (pragma?.value !== undefined && !pragmasReadingWithArgument(db).has(pragma.name))
    throw new WriteRefused(`PRAGMA ${pragma.name} = ${pragma.value}`);
  // EXPLAIN runs nothing, but the authorizer still judges the statement it explains: so does this.
  const explained = /^EXPLAIN\s+(?:QUERY\s+PLAN\s+)?([^]*)$/i.exec(statementCore(sql));
  if (explained) return refuseWritingProgram(db, explained[1]!);
  let program: Record<string, unknown>[];
  try {
    program = db.prepare(`EXPLAIN ${sql}`).all();
  } catch {
    return; // not one statement SQLite can compile: prepare() says why
  }
  for (const { opcode, p2, p3, p4 } of program) {
    if (opcode === 'Transaction' && p2 !== 0) throw new WriteRefused('a write transaction');
    if (opcode === 'AutoCommit') throw new WriteRefused('TRANSACTION');
    if (opcode === 'Savepoint') throw new WriteRefused('SAVEPOINT');
    if (opcode === 'Vacuum') throw new WriteRefused('VACUUM');
    if (opcode === 'JournalMode' && p3 !== -1) throw new WriteRefused('PRAGMA journal_mode = …'); // -1: a query
    const called = opcode === 'Function' || opcode === 'PureFunc' ? /^(sqlite_attach|sqlite_detach|load_extension)\(/.exec(String(p4)) : null;
    if (called) throw new WriteRefused({ sqlite_attach: 'ATTACH', sqlite_detach: 'DETACH' }[called[1]!] ?? 'load_extension()');
  }
}
