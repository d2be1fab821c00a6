import type { Database } from './open.js';
import {
  entryWithHistory,
  historyItems,
  libraryItems,
  mirrorAge,
  schemaText,
  searchEntries,
  sliceOf,
  statsSnapshot,
  tableItems,
  upcomingCalendar,
} from './read.js';

/**
 * What the query process (query-process.ts) answers by name, run on its database: lk's own readings, for lk mcp's tools
 * (lk's commands run them in their own process). The user's SQL is read apart, as a stream (query-child.ts).
 */
export function mirrorQueries(db: Database) {
  return {
    mirrorAge: () => mirrorAge(db),
    searchEntries: (...args: Tail<Parameters<typeof searchEntries>>) => sliceOf(searchEntries(db, ...args)),
    libraryItems: (...args: Tail<Parameters<typeof libraryItems>>) => sliceOf(libraryItems(db, ...args)),
    historyItems: (...args: Tail<Parameters<typeof historyItems>>) => sliceOf(historyItems(db, ...args)),
    tableItems: (...args: Tail<Parameters<typeof tableItems>>) => tableItems(db, ...args),
    upcomingCalendar: (...args: Tail<Parameters<typeof upcomingCalendar>>) => upcomingCalendar(db, ...args),
    entryWithHistory: (id: string) => entryWithHistory(db, id),
    statsSnapshot: () => statsSnapshot(db),
    schemaText: () => schemaText(db),
  };
}

type Tail<T extends unknown[]> = T extends [unknown, ...infer Rest] ? Rest : never;

export type MirrorQueries = ReturnType<typeof mirrorQueries>;
