import type { ResourceLink } from '@modelcontextprotocol/server';
import { firstOf } from '../util/object-path.js';

/** Where an entry or an event names its title (an entry's work, lk next's item, an event's work). */
const TITLE_PATHS = ['work.title', 'work.name', 'title'];

/** Where the id of the entry is: an entry's own (library, search, lk next), an event's entry (history). */
export const ENTRY_ID = ['id'];
export const EVENT_ENTRY_ID = ['entryId', 'entry.id'];

/**
 * A listing's entries as resource_link blocks beside its text: a host fetches a whole entry (lk://entry/{id}) only
 * when it needs it. One link per entry, in the listing's order, however many of its events the page holds.
 */
export function entryLinks(items: unknown, idPaths: readonly string[]): ResourceLink[] {
  const seen = new Set<string>();
  const links: ResourceLink[] = [];
  for (const item of Array.isArray(items) ? items : []) {
    const found = firstOf(item, idPaths);
    const id = typeof found === 'number' ? String(found) : found;
    if (typeof id !== 'string' || id === '' || seen.has(id)) continue;
    seen.add(id);
    const title = firstOf(item, TITLE_PATHS);
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
