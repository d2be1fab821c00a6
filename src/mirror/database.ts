/** The part of node:sqlite's DatabaseSync the mirror uses (@types/node 20 does not describe the module). */
export interface Database {
  exec(sql: string): void;
  prepare(sql: string): Statement;
  close(): void;
  readonly isOpen?: boolean;
}

export interface Statement {
  run(...params: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  get(...params: unknown[]): Record<string, unknown> | undefined;
  all(...params: unknown[]): Record<string, unknown>[];
  iterate(...params: unknown[]): IterableIterator<Record<string, unknown>>;
}
