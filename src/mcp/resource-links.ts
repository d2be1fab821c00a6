import type { ResourceLink } from '@modelcontextprotocol/server';
import { entryTitleOf, ownerEntryIdOf } from '../items/entry.js';
import { itemIdOf } from '../items/values.js';

/** The id of the entry: an entry's own (library, search, lk next), an event's entry (history). */
export const ENTRY_ID = itemIdOf;
export const EVENT_ENTRY_ID = ownerEntryIdOf;

/**
 * A listing's entries as resource_link blocks beside its text: a host fetches a whole entry (lk://entry/{id}) only
 * when it needs it. One link per entry, in the listing's order, however many of its events the page holds.
 */
export function entryLinks(items: unknown, entryIdOf: (item: unknown) => unknown): ResourceLink[] {
  const seen = new Set<string>();
  const links: ResourceLink[] = [];
  for (const item of Array.isArray(items) ? items : []) {
    const found = entryIdOf(item);
    const id = typeof found === 'number' ? String(found) : found;
    if (typeof id !== 'string' || id === '' || seen.has(id)) continue;
    seen.add(id);
    // An entry's work's title, lk next's item's, an event's work's.
    const title = entryTitleOf(item);
    links.push({
      type: 'resource_link',
      uri: `lk://entry/${encodeURIComponent(id)}`,
      name: `entry ${id}`,
      ...(typeof title === 'string' ? { title } : {}),
      mimeType: 'application/json',
    });
  }
  return links;
}
