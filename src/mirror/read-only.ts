import type { Database } from './open.js';

/**
 * `lk sql` reads and nothing else. The mirror is opened read-only, which stops writes to its own file; what that
 * leaves open (VACUUM INTO another file, ATTACH, temporary tables, PRAGMA settings) is refused here, by SQLite:
 * - Node 24 and later: an authorizer (DatabaseSync#setAuthorizer) allows reading actions only, while the statement
 *   is compiled and while it runs (VACUUM INTO attaches its target file as it runs, and is refused then);
 * - Node 22, which has no authorizer: the statement's compiled program (EXPLAIN) is refused when it opens a write
 *   transaction on any database, vacuums, or attaches a file (sqlite_attach), before it runs.
 * Either way load_extension() stays off (node:sqlite's default).
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

/** Runs one statement of the user's on `db` (read-only) under the rules above; its rows. */
export function readOnlyQuery(db: Database, constants: Constants, sql: string): Record<string, unknown>[] {
  const authorizing = db as Database & Authorizing;
  if (typeof authorizing.setAuthorizer !== 'function') {
    refuseWritingProgram(db, sql);
    return db.prepare(sql).all();
  }
  let refused: string | undefined;
  authorizing.setAuthorizer(readingAuthorizer(db, constants, (action) => (refused ??= action)));
  try {
    return db.prepare(sql).all();
  } catch (error) {
    if (refused !== undefined) throw new WriteRefused(refused);
    throw error;
  } finally {
    authorizing.setAuthorizer(null);
  }
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

/** Node 22: what the statement's program would do, read from EXPLAIN (sqlite.org/opcode.html). */
function refuseWritingProgram(db: Database, sql: string): void {
  let program: Record<string, unknown>[];
  try {
    program = db.prepare(`EXPLAIN ${sql}`).all();
  } catch {
    return; // not one statement SQLite can compile (or already EXPLAIN, which runs nothing): prepare() says why
  }
  for (const { opcode, p2, p3, p4 } of program) {
    if (opcode === 'Transaction' && p2 !== 0) throw new WriteRefused('a write transaction');
    if (opcode === 'Vacuum') throw new WriteRefused('VACUUM');
    if (opcode === 'JournalMode' && p3 !== -1) throw new WriteRefused('PRAGMA journal_mode = …'); // -1: a query
    const called = opcode === 'Function' || opcode === 'PureFunc' ? /^(sqlite_attach|sqlite_detach|load_extension)\(/.exec(String(p4)) : null;
    if (called) throw new WriteRefused({ sqlite_attach: 'ATTACH', sqlite_detach: 'DETACH' }[called[1]!] ?? 'load_extension()');
  }
}
