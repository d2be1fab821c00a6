import type { Database } from '../database.js';
import { ownerEntryIdOf } from '../../items/entry.js';
import { text } from '../../items/values.js';
import type { EndpointReads } from './fetch.js';
import type { AreaName } from './plan.js';
import { touchedEntriesRead, type LibraryReadWhole, type QuickPlan } from './quick.js';
import type { MirrorWriter } from './write.js';

/**
 * The quick sync's reads (sync/quick.ts plans them): the entries added since, the history since, and each entry
 * those events touch, merged into the mirror — nothing of the library or history deleted, a known row kept in its
 * place, the new ones on top. The collections are read after, as in any sync.
 */

/** What the reads could not place: events without an id (which stored one each is cannot be told). */
export interface ChangesRead {
  eventsWithoutId: number;
  /** The library read whole after all, why, and how many entries that removed (libraryReadWholeLine). */
  readWhole?: { reason: LibraryReadWhole; removed: number } | undefined;
}

export async function readChanges(plan: QuickPlan, endpoints: EndpointReads, writer: MirrorWriter): Promise<ChangesRead> {
  writer.merge(['entries', 'works', 'history']);
  const heldBefore = writer.rows('entries');
  // The window first, the newest entries after: the library's total read last is the one the mirror is checked by.
  const events = await endpoints.historySince(plan.historyFrom, plan.newest.limit);
  const newest = await endpoints.addedSince(plan.newest, (id) => writer.holds('entries', id));
  const { added } = newest;
  const addedIds = added.map((entry) => text(entry.id)!);
  // Every page read and none held an entry the mirror knows, though it holds some: the mirror names the entries
  // otherwise (an export with ids of its own). What was read is the library whole: the mirror takes it as it is.
  if (newest.reachedEnd && heldBefore > 0) {
    const removed = await writer.entriesReadWhole(async () => {
      for (const entry of added) writer.entry(entry);
    }, false);
    return { ...(await placeWindow(events, endpoints, writer, addedIds)), readWhole: { reason: 'other ids', removed } };
  }
  writer.placeOnTop('entries', addedIds);
  for (const entry of added) writer.entry(entry);
  const placed = await placeWindow(events, endpoints, writer, addedIds);
  // The library's count as the server gave it against the mirror's: an entry removed since (or one no listing
  // showed) is found only by reading the library whole — its pages, the entries the server lists now.
  if (newest.total !== undefined && writer.rows('entries') !== newest.total) {
    const removed = await writer.entriesReadWhole(() => endpoints.library(writer), true);
    return { ...placed, readWhole: { reason: 'count', removed } };
  }
  return placed;
}

/** The window's events into the mirror, and each entry they touch, as it is now; new entries' undated events. */
async function placeWindow(
  events: Record<string, unknown>[],
  endpoints: EndpointReads,
  writer: MirrorWriter,
  addedIds: string[],
): Promise<ChangesRead> {
  const placeable = events.filter((event) => text(event.id) !== null);
  writer.placeOnTop(
    'history',
    placeable.map((event) => text(event.id)!),
  );
  const touched = new Set<string>();
  for (const event of placeable) {
    const outcome = writer.event(event);
    const entryId = ownerEntryIdOf(event);
    if ((outcome === 'added' || outcome === 'changed') && entryId !== null && !addedIds.includes(entryId)) touched.add(entryId);
  }
  // An event moves its entry on (progress, status, dates): each entry touched, as it is now. One removed since waits.
  if (touchedEntriesRead(touched.size, writer.rows('entries')) === 'library') await endpoints.library(writer);
  else
    for (const id of touched) {
      const entry = await endpoints.entry(id);
      if (entry) writer.entry(entry);
    }
  // A new entry may come with undated events (an import): in its own history only. Those of the others do not change.
  let eventsWithoutId = events.length - placeable.length;
  await endpoints.undatedEvents(addedIds, {
    undatedEvent: (entryId, event) => {
      if (text(event.id) !== null) writer.undatedEvent(entryId, event);
      else eventsWithoutId += 1;
    },
  });
  return { eventsWithoutId };
}

/** The date of the newest dated event the mirror holds (the server's clock), if any. */
export function newestEventAt(db: Database): number | undefined {
  const newest = db.prepare('SELECT max(date) AS newest FROM history WHERE date IS NOT NULL').get()?.newest;
  const at = typeof newest === 'string' ? Date.parse(newest) : NaN;
  return Number.isNaN(at) ? undefined : at;
}

/** The rows the mirror holds of each collection: what reading it whole would cost (sync/quick.ts areaCost). */
export function heldRows(db: Database): Record<AreaName, number> {
  const count = (table: string) => Number(db.prepare(`SELECT count(*) AS n FROM ${table}`).get()!.n);
  return {
    lists: count('lists'),
    reviews: count('reviews'),
    achievements: count('achievements'),
    notifications: count('notifications'),
    profile: 1,
    calendar: 1,
    stats: 1,
  };
}
