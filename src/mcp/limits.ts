/** The most rows the sql tool returns, and the most bytes of JSON they may take: an answer a model can read whole. */
export const SQL_ROW_LIMIT = 1000;
export const SQL_BYTE_LIMIT = 256 * 1024;

export interface SqlAnswer {
  [key: string]: unknown;
  columns: string[];
  rows: Record<string, unknown>[];
  truncated: boolean;
  total_rows: number;
}

/** The rows of a query within `maxRows` and SQL_BYTE_LIMIT, saying whether any were left out. */
export function sqlAnswer(all: Record<string, unknown>[], maxRows: number): SqlAnswer {
  const rows: Record<string, unknown>[] = [];
  let bytes = 0;
  for (const row of all.slice(0, maxRows)) {
    const plain = { ...row };
    bytes += Buffer.byteLength(JSON.stringify(plain)) + 1;
    if (bytes > SQL_BYTE_LIMIT) break;
    rows.push(plain);
  }
  return { columns: Object.keys(all[0] ?? {}), rows, truncated: rows.length < all.length, total_rows: all.length };
}
