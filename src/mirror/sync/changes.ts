import type { Database } from '../database.js';
import { ownerEntryIdOf } from '../../items/entry.js';
import { text } from '../../items/values.js';
import type { EndpointReads } from './fetch.js';
import type { AreaName } from './plan.js';
import { touchedEntriesRead, type QuickPlan } from './quick.js';
import type { MirrorWriter } from './write.js';

/**
 * The quick sync's reads (sync/quick.ts plans them): the entries added since, the history since, and each entry
 * those events touch, merged into the mirror — nothing of the library or history deleted, a known row kept in its
 * place, the new ones on top. The collections are read after, as in any sync.
 */

/** What the reads could not place: events without an id (which stored one each is cannot be told). */
export interface ChangesRead {
  eventsWithoutId: number;
}

export async function readChanges(plan: QuickPlan, endpoints: EndpointReads, writer: MirrorWriter): Promise<ChangesRead> {
  writer.merge(['entries', 'works', 'history']);
  const added = await endpoints.addedSince(plan.newest, (id) => writer.holds('entries', id));
  const addedIds = added.map((entry) => text(entry.id)!);
  writer.placeOnTop('entries', addedIds);
  for (const entry of added) writer.entry(entry);

  const events = await endpoints.historySince(plan.historyFrom);
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
