import { MAX_PAGE_SIZE } from '../../api/paginate.js';
import { EXPORTABLE_AREAS, ALWAYS_READ_AREAS, type AreaName } from './plan.js';

/**
 * The quick sync, as data: within the export hour (the hour's export is the mirror's already, or the server refused
 * a new one), a mirror that holds a whole earlier sync of the account is brought up to date from what changed
 * since — the history since the last sync (GET /v1/history's `from`), the entries added since (GET /v1/library
 * sorted by `added`, newest first, until a known one), each entry those events touch (GET /v1/library/{id}), and
 * the collections small enough to read whole. What no listing shows changed waits for the next export, which
 * brings everything: docs/api.md gives no "changed since" filter but history's window.
 */

/** What is known before the quick sync is chosen. */
export interface QuickFacts {
  /** --full: every page, never the quick sync. */
  full: boolean;
  /** The server's moment the mirror shows (its last sync); none for a new mirror. */
  snapshotAt: number | undefined;
  /** The date of the newest dated event the mirror holds: the server's clock, whatever ours says. */
  newestEventAt?: number | undefined;
  /** The mirror's recorded account is the key's (a mirror that cannot say is read whole). */
  sameAccount: boolean;
  /** No export can be had now: the hour's one is the mirror's already, or the server refused a new one. */
  withinHour: boolean;
  /** Rows the mirror holds of each collection (its lists for lists): what reading it whole costs. */
  held: Readonly<Record<AreaName, number>>;
}

export interface QuickPlan {
  /**
   * GET /v1/history's `from`: the last sync's moment or the newest event the mirror holds, whichever is earlier — the
   * latter is the server's own clock, so a server whose clock is behind ours loses no event — less a margin.
   */
  historyFrom: string;
  /** GET /v1/library's query for the entries added since: the newest first, page after page until a known one. */
  newest: { sort: 'added'; order: 'desc'; limit: number };
  /** The collections read whole (their rows compared and pruned as in any sync). */
  areas: AreaName[];
  /** The collections too large to read whole within the budget: left as they were, for the next export. */
  waiting: AreaName[];
}

/** The window reaches this far before the last sync: an event the server dated a little earlier than our clock. */
export const CLOCK_MARGIN_MS = 60 * 60 * 1000;
/** A collection whose listing takes more pages than this waits for the export (reviews at 20,000 entries: 13). */
export const AREA_PAGES = 2;
/**
 * The requests all the collections together may take: with the history, the library's first page and a few entries,
 * a quick sync stays within one minute of the default budget (docs/api.md, Limits: 60 a minute).
 */
export const AREAS_BUDGET = 30;

/** The areas in the order a sync reads them. */
const QUICK_ORDER: readonly AreaName[] = [...EXPORTABLE_AREAS, ...ALWAYS_READ_AREAS];

/** The requests reading an area whole takes, from what the mirror holds of it. */
export function areaCost(area: AreaName, held: number): { pages: number; requests: number } {
  const pages = Math.max(1, Math.ceil(held / MAX_PAGE_SIZE));
  switch (area) {
    case 'profile':
    case 'stats':
    case 'calendar':
      return { pages: 1, requests: 1 };
    case 'lists':
      return { pages, requests: pages + held }; // each list's items: GET /v1/lists/{id}
    default:
      return { pages, requests: pages };
  }
}

/** The quick plan, or undefined when the sync reads as before (an export, every page, or --full). */
export function planQuick(facts: QuickFacts): QuickPlan | undefined {
  if (facts.full || !facts.withinHour || !facts.sameAccount || facts.snapshotAt === undefined) return undefined;
  const areas: AreaName[] = [];
  const waiting: AreaName[] = [];
  let spent = 0;
  for (const area of QUICK_ORDER) {
    const cost = areaCost(area, facts.held[area]);
    if (cost.pages <= AREA_PAGES && spent + cost.requests <= AREAS_BUDGET) {
      areas.push(area);
      spent += cost.requests;
    } else waiting.push(area);
  }
  return {
    historyFrom: new Date(Math.min(facts.snapshotAt, facts.newestEventAt ?? Infinity) - CLOCK_MARGIN_MS).toISOString(),
    newest: { sort: 'added', order: 'desc', limit: MAX_PAGE_SIZE },
    areas,
    waiting,
  };
}

/**
 * How the entries the new events touch are read: each one (GET /v1/library/{id}), or, when there are more of them
 * than the library has pages (a mirror last synced long ago, the hour refused), every page of the library — fewer
 * requests for the same entries as they are now.
 */
export function touchedEntriesRead(touched: number, heldEntries: number): 'each' | 'library' {
  return touched > Math.max(1, Math.ceil(heldEntries / MAX_PAGE_SIZE)) ? 'library' : 'each';
}

/** What a quick sync could not see, for its one line. */
export interface QuickLeftovers {
  waiting: readonly AreaName[];
  /** Events of the window without an id: which stored event each is cannot be told, so the export brings them. */
  eventsWithoutId: number;
  /**
   * Whether the account changed in a way no listing dates (its stats or profile differ from the last sync's): a
   * rating, note or status set without an event, an event dated before the last sync, may be among it.
   */
  undatedChanges: boolean;
  /** When the next export can be had, when known (a moment already worded: "14:05:09 (in 42m)"). */
  nextExport: string | undefined;
}

/**
 * The one line a quick sync says when something may wait for the next export: what, by name, when that export can be
 * had, and that `lk sync --full` reads it now. Undefined when nothing can be waiting.
 */
export function waitsForExportLine(left: QuickLeftovers): string | undefined {
  const parts: string[] = [];
  if (left.undatedChanges) parts.push('ratings, notes and statuses set without an event', 'events dated before the last sync');
  if (left.eventsWithoutId > 0) parts.push(`${left.eventsWithoutId} event${left.eventsWithoutId === 1 ? '' : 's'} without an id`);
  if (left.waiting.length > 0) parts.push(`the ${joinNames(left.waiting)} (too large to read whole within the budget)`);
  if (parts.length === 0) return undefined;
  const when = left.nextExport ? `the next export (possible at ${left.nextExport})` : 'the next export';
  return `lk: read only what changed since the last sync; may be waiting for ${when}: ${parts.join('; ')} — lk sync --full reads every page now`;
}

/** The line a quick sync says when the library's count was off and it read the library whole. */
export function libraryReadWholeLine(reason: LibraryReadWhole, removed: number): string {
  return reason === 'other ids'
    ? `lk: the export names entries by other ids than the API: the library was read whole from its pages (${removed.toLocaleString('en-US')} entr${removed === 1 ? 'y' : 'ies'} of the export's ids replaced); their events keep the export's ids until lk sync --full`
    : `lk: the library's count differed from the mirror's: it was read whole from its pages (${removed.toLocaleString('en-US')} entr${removed === 1 ? 'y' : 'ies'} removed on the server, with their events)`;
}

/** Why a quick sync read the library whole after all (sync/changes.ts). */
export type LibraryReadWhole = 'count' | 'other ids';

function joinNames(names: readonly string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
}
