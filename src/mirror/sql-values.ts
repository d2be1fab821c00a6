import type { Database } from './database.js';

/**
 * The values of a statement of the user's (lk sql, the mcp sql tool) as the query process sends them to lk: numbers
 * and text as they are, a BLOB as `{ $base64: true, encoded }` (lk turns it into a Base64Value, util/base64-value.ts:
 * the form every output format writes). One value is capped, so that neither process holds more than the cap allows:
 * a longer TEXT or BLOB fails the statement with one line naming its column, rather than being cut without a word.
 */

/** lk sql's cap on one value: 64 MiB, whose base64 (85 MiB) stays far inside the longest string V8 can hold. */
export const DEFAULT_VALUE_CAP = 64 * 1024 * 1024;

/** A row ready to send, and about how many bytes of JSON it takes (keys included, escapes not). */
export interface SendableRow {
  values: unknown[];
  bytes: number;
}

export function sendableRow(row: unknown[], columns: string[], cap: number): SendableRow {
  let bytes = 2;
  const values = row.map((value, i) => {
    const column = columns[i] ?? String(i);
    bytes += column.length + 4;
    if (value instanceof Uint8Array) {
      if (value.byteLength > cap) throw valueTooLarge(column, 'BLOB', value.byteLength, cap);
      const encoded = Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
      bytes += encoded.length + 30;
      return { $base64: true, encoded };
    }
    if (typeof value === 'string') {
      // A UTF-8 byte is at most 3 per UTF-16 unit: only a long text needs counting.
      if (value.length * 3 > cap && Buffer.byteLength(value) > cap) throw valueTooLarge(column, 'TEXT', Buffer.byteLength(value), cap);
      bytes += value.length + 2;
      return value;
    }
    bytes += 24;
    return value;
  });
  return { values, bytes };
}

/**
 * Sets SQLite's own limit on the length of a value (SQLITE_LIMIT_LENGTH) to `cap` where node:sqlite exposes it
 * (Node 24 and later): SQLite then refuses to make a longer value, so it never takes memory here. Returns how to put
 * the previous limit back. On Node 22 the rows' values are checked as they come (sendableRow) instead.
 */
export function limitValueLength(db: Database, cap: number): () => void {
  const limits = (db as Database & { limits?: { length: number } }).limits;
  if (limits === undefined) return () => {};
  const before = limits.length;
  limits.length = Math.min(before, cap);
  return () => {
    limits.length = before;
  };
}

/** SQLite's "string or blob too big" under the cap above, as the cap's own one line. */
export function capFailure(error: unknown, cap: number): unknown {
  const message = (error as Error | undefined)?.message ?? '';
  if (!/string or blob too big/i.test(message)) return error;
  return new Error(`a value of this query is longer than ${bytesText(cap)}, the most one value may take here; ${ADVICE}`);
}

const ADVICE = 'select a part of it (substr(x, 1, n)) or its size (length(x))';

function valueTooLarge(column: string, kind: string, size: number, cap: number): Error {
  return new Error(
    `column ${column} holds a ${kind} of ${bytesText(size)}, longer than ${bytesText(cap)}, the most one value may take here; ${ADVICE}`,
  );
}

function bytesText(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
