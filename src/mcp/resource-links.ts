import type { ResourceLink } from '@modelcontextprotocol/server';
import { entryTitleOf } from '../items/entry.js';

/**
 * A listing's entries as resource_link blocks beside its text: a host fetches a whole entry (lk://entry/{id}) only
 * when it needs it. One link per entry, in the listing's order, however many of its events the page holds.
 */
export function entryLinks(items: unknown, idOf: (item: unknown) => string | null | undefined): ResourceLink[] {
  const seen = new Set<string>();
  const links: ResourceLink[] = [];
  for (const item of Array.isArray(items) ? items : []) {
    const id = idOf(item);
    if (id === null || id === undefined || seen.has(id)) continue;
    seen.add(id);
    const title = entryTitleOf(item) ?? undefined;
    links.push({
      type: 'resource_link',
      uri: `lk://entry/${encodeURIComponent(id)}`,
      name: `entry ${id}`,
      ...(title ? { title } : {}),
      mimeType: 'application/json',
    });
  }
  return links;
}
