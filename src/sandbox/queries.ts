/**
 * Ordered, filtered views of an account's entries and events, cached until the account changes, so that paging
 * through 100,000 entries costs a slice per page rather than a sort.
 */
import { workTitle } from './catalogue.js';
import type { AccountData } from './data.js';
import { compareEventsNewestFirst, entryEvents, firstAtOrBefore } from './history.js';
import type { Domain, EntryRecord, EventRecord, Lang, Phase } from './model.js';
import type { Order, Sort } from './params.js';

export interface LibraryQuery {
  sort: Sort;
  order: Order;
  lang: Lang;
  phase: Phase | undefined;
  domain: Domain | undefined;
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Case- and accent-insensitive sort key for titles ("Été" sorts with "ete"). */
export function titleSortKey(title: string): string {
  if (!/[^\x00-\x7f]/.test(title)) return title.toLowerCase(); // most titles: skip the costly normalisation
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/**
 * The natural (desc) order of a sort and where its "no value" tail starts: unrated entries (rating) and entries
 * never finished (finished) come last in both orders, since they are neither best nor worst, newest nor oldest.
 */
function naturalOrder(account: AccountData, sort: Sort, lang: Lang): { ordered: EntryRecord[]; valued: number } {
  return account.cached(`natural|${sort}|${sort === 'title' ? lang : ''}`, () => {
    const entries = account.entries;
    switch (sort) {
      case 'added':
        return { ordered: entries, valued: entries.length };
      case 'title': {
        const keyed = entries.map((entry) => ({ key: titleSortKey(workTitle(entry.work, lang)), entry }));
        keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : byId(a.entry, b.entry)));
        return { ordered: keyed.map(({ entry }) => entry), valued: entries.length };
      }
      case 'rating': {
        const rated = entries.filter((entry) => entry.rating !== null).sort((a, b) => b.rating! - a.rating! || byId(a, b));
        const unrated = entries.filter((entry) => entry.rating === null).sort(byId);
        return { ordered: [...rated, ...unrated], valued: rated.length };
      }
      case 'finished': {
        const done = entries.filter((entry) => entry.finished !== null).sort((a, b) => b.finished! - a.finished! || byId(a, b));
        const never = entries.filter((entry) => entry.finished === null).sort(byId);
        return { ordered: [...done, ...never], valued: done.length };
      }
    }
  });
}

/** GET /v1/library: entries in the asked order, filtered by phase and domain. */
export function libraryView(account: AccountData, query: LibraryQuery): EntryRecord[] {
  const key = `library|${query.sort}|${query.order}|${query.sort === 'title' ? query.lang : ''}|${query.phase ?? ''}|${query.domain ?? ''}`;
  return account.cached(key, () => {
    const { ordered, valued } = naturalOrder(account, query.sort, query.lang);
    // asc reverses the natural order (ties included, so it is an exact mirror); the no-value tail stays last.
    const inOrder = query.order === 'desc' ? ordered : [...ordered.slice(0, valued).reverse(), ...ordered.slice(valued)];
    if (query.phase === undefined && query.domain === undefined) return inOrder;
    return inOrder.filter(
      (entry) => (query.phase === undefined || entry.phase === query.phase) && (query.domain === undefined || entry.work.domain === query.domain),
    );
  });
}

/** Every dated event of the account, newest first (ties by id), optionally of one domain. */
export function datedEvents(account: AccountData, domain: Domain | undefined): EventRecord[] {
  return account.cached(`dated|${domain ?? ''}`, () => {
    if (domain !== undefined) return datedEvents(account, undefined).filter((event) => event.entry.work.domain === domain);
    const events: EventRecord[] = [];
    for (const entry of account.entries) for (const event of entryEvents(entry)) if (event.date !== null) events.push(event);
    return events.sort(compareEventsNewestFirst);
  });
}

/** GET /v1/history: dated events within [from, to] (inclusive ms bounds), newest first. */
export function historyView(account: AccountData, domain: Domain | undefined, from: number | undefined, to: number | undefined): EventRecord[] {
  const events = datedEvents(account, domain);
  if (from === undefined && to === undefined) return events;
  const start = to === undefined ? 0 : firstAtOrBefore(events, to);
  const end = from === undefined ? events.length : firstAtOrBefore(events, from - 1);
  return events.slice(start, Math.max(start, end));
}
