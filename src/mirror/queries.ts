import type { Database } from './open.js';
import { mirrorAge, schemaText } from './read.js';

/**
 * What the query process (query-process.ts) answers by name, run on its database: the readings lk sql makes beside
 * the user's statement. lk's other readings (search, --offline, lk mcp's tools) run in lk's own process on
 * node:sqlite (mirror/read.ts); the user's SQL is read apart, as a stream (query-child.ts).
 */
export function mirrorQueries(db: Database) {
  return {
    mirrorAge: () => mirrorAge(db),
    schemaText: () => schemaText(db),
  };
}

export type MirrorQueries = ReturnType<typeof mirrorQueries>;
