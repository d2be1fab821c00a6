import type { Database } from './open.js';
import {
  entryWithHistory,
  historyItems,
  libraryItems,
  mirrorAge,
  schemaText,
  searchEntries,
  statsSnapshot,
  tableItems,
  upcomingCalendar,
} from './read.js';
import { readOnlyQuery } from './read-only.js';

/**
 * What the query process (query-process.ts) answers: each reading of the mirror by name, run on its database. The
 * SQLite constants are node:sqlite's, which the read-only rules need.
 */
export function mirrorQueries(db: Database, constants: Record<string, number>) {
  return {
    mirrorAge: () => mirrorAge(db),
    searchEntries: (...args: Tail<Parameters<typeof searchEntries>>) => searchEntries(db, ...args),
    libraryItems: (...args: Tail<Parameters<typeof libraryItems>>) => libraryItems(db, ...args),
    historyItems: (...args: Tail<Parameters<typeof historyItems>>) => historyItems(db, ...args),
    tableItems: (...args: Tail<Parameters<typeof tableItems>>) => tableItems(db, ...args),
    upcomingCalendar: (...args: Tail<Parameters<typeof upcomingCalendar>>) => upcomingCalendar(db, ...args),
    entryWithHistory: (id: string) => entryWithHistory(db, id),
    statsSnapshot: () => statsSnapshot(db),
    schemaText: () => schemaText(db),
    sql: (sql: string) => readOnlyQuery(db, constants, sql),
  };
}

type Tail<T extends unknown[]> = T extends [unknown, ...infer Rest] ? Rest : never;

export type MirrorQueries = ReturnType<typeof mirrorQueries>;
