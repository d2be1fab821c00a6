import { Base64Value } from '../util/base64-value.js';
import type { RowsPage } from './mirror.js';

/**
 * The most rows a page of the sql tool holds, and the most bytes of JSON they may take: an answer a model can read
 * whole. The byte limit is also the longest value (a TEXT or a BLOB) the tool reads: a longer one fails the call with
 * one line naming its column, and is never made in lk's memory (the query process checks it first).
 */
export const SQL_ROW_LIMIT = 1000;
export const SQL_BYTE_LIMIT = 256 * 1024;

export interface SqlAnswer {
  [key: string]: unknown;
  columns: string[];
  rows: Record<string, unknown>[];
  truncated: boolean;
}

/** A page of a query's rows within SQL_BYTE_LIMIT, saying whether any remain (past the page, or cut for size). */
export function sqlPage(found: RowsPage): SqlAnswer {
  const rows: Record<string, unknown>[] = [];
  let bytes = 0;
  for (const row of found.rows) {
    // A BLOB as JSON writes it, {"$base64": true, "encoded": "…"}: the answer is plain JSON data.
    const plain = Object.fromEntries(Object.entries(row).map(([key, value]) => [key, value instanceof Base64Value ? value.toJSON() : value]));
    bytes += Buffer.byteLength(JSON.stringify(plain)) + 1;
    if (bytes > SQL_BYTE_LIMIT && rows.length === 0)
      throw new Error(`one row takes more than ${SQL_BYTE_LIMIT / 1024} KB of JSON; select fewer or shorter columns (substr(), length())`);
    if (bytes > SQL_BYTE_LIMIT) break;
    rows.push(plain);
  }
  return { columns: found.columns, rows, truncated: found.more || rows.length < found.rows.length };
}
