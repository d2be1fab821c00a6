import type { Query } from '../api/client.js';
import type { EndpointName } from '../api/endpoints.js';
import type { Database } from '../mirror/open.js';
import {
  entryWithHistory,
  historyItems,
  libraryItems,
  searchEntries,
  statsSnapshot,
  tableItems,
  upcomingCalendar,
  type LibraryFilters,
  type Listing as MirrorListing,
  type Window,
} from '../mirror/read.js';
import type { View } from '../output/formats/view.js';
import type { OutputOptions } from '../output/formats/writer.js';
import { renderListWithItems } from '../output/wording/layouts.js';
import { nextView } from '../output/wording/next-view.js';
import { achievementView, calendarView, entryView, historyView, listView, notificationView, reviewView } from '../output/wording/views.js';
import { dateBound } from '../util/date-bound.js';
import { UsageError } from '../util/errors.js';
import type { ListingFilter } from './filters.js';
import { windowOf } from './pages.js';

/**
 * The readings of lk: each answer declared once — what it answers, its filters, its view, where the API has it and
 * where the mirror does — and every surface derived from it: the command (src/commands/readings.ts swaps the source
 * for --offline), lk serve's routes and lk mcp's tools. Adding a reading, or a surface to one, is an entry here; the
 * parity test (test/mirror/readings-parity.test.ts) runs every entry on every surface it names.
 */

/**
 * A reading's filters, as the command's flags and the tools' arguments give them (each reading reads its own): the
 * library's (mirror/read.ts LibraryFilters: the command's flags, and more for lk mcp's list_library), and these.
 */
export interface Filters extends LibraryFilters {
  /** A window of history: a day (YYYY-MM-DD) or an instant, as the API takes them. */
  from?: string | undefined;
  to?: string | undefined;
  /** The entry or list, checked (commands/flag-values.ts entityId). */
  id?: string | undefined;
  /** Words to find (search). */
  text?: string | undefined;
}

/** Where a reading is answered: its command (and whether it takes --offline), lk serve's route, lk mcp's tool. */
export interface Surfaces {
  /** The command's words: ['library', 'show'] is `lk library show`. */
  command: readonly string[];
  /** The command answers from the mirror with --offline (or always, for a reading of the mirror alone). */
  offline: boolean;
  route?: string;
  tool?: string;
}

interface Declared {
  /** What it answers, as a title (lk mcp's tool made from it is named so). */
  about: string;
  surfaces: Surfaces;
  /** It shows titles: offline, the mirror's language is the one --lang may ask for (commands/offline.ts requireTitleLanguage). */
  titles: boolean;
}

/** The API's side of a reading: an endpoint of api/endpoints.ts, with the query its filters make (lang added where titles). */
interface ApiSide {
  endpoint: EndpointName;
  query: (filters: Filters) => Query;
  /** The path takes the filters' id; a 404 names it so (`library entry 42`). */
  id?: string;
  /** The endpoint shows no title, so the run's language is not sent (it is, everywhere else). */
  lang?: false;
  /** Not an envelope in docs/api.md (the calendar): read whole, following pages only if the instance pages it anyway. */
  followIfPaged?: boolean;
}

/** Items, page after page. */
export interface ListingReading extends Declared {
  kind: 'listing';
  view: View;
  /** Undefined: the mirror alone has it (search). */
  api?: ApiSide;
  /** A window of the mirror's items in the server's order; undefined: the API alone has it. */
  mirror?: (db: Database, filters: Filters, window: Window, now: number) => MirrorListing;
  /** The server pages it (--page, --limit, --all); else it is read whole (the calendar). */
  paged: boolean;
  /** The filters its mirror side reads besides the window (a tool made from it takes these as arguments). */
  takes?: readonly ListingFilter[];
}

export type { ListingFilter };

/** One value. */
export interface SingleReading extends Declared {
  kind: 'single';
  view?: View;
  layout?: 'view' | 'sections';
  /** Its own writing in every format, in place of a layout (output/result.ts Resource). */
  write?: (value: unknown, options: OutputOptions) => Promise<void>;
  api: ApiSide;
  /** The value the mirror holds; undefined: the API alone has it. */
  mirror?: (db: Database, filters: Filters) => unknown;
}

/** Composed from several reads of one source (src/readings/overview.ts): next, status, the feed. */
export interface ComposedReading extends Declared {
  kind: 'composed';
  view?: View;
  /** Made from the mirror alone (the feed, the year in review): the command needs no key and takes no --offline. */
  mirrorOnly?: true;
}

export type Reading = ListingReading | SingleReading | ComposedReading;

const upper = (value: string | undefined) => value?.toUpperCase();
const bound = (date: string | undefined, edge: 'start' | 'end') => (date === undefined ? undefined : dateBound(date, edge));
const whole = (items: unknown[], window: Window) => windowOf(items)(window);

export const READINGS = {
  library: {
    kind: 'listing',
    about: 'Library entries',
    takes: ['domain', 'phase'],
    view: entryView,
    paged: true,
    titles: true,
    api: { endpoint: 'library', query: ({ phase, domain, sort, order }) => ({ phase, domain, sort, order }) },
    mirror: (db, filters, window) =>
      libraryItems(db, { ...filters, domain: upper(filters.domain), phase: upper(filters.phase), status: upper(filters.status) }, window),
    surfaces: { command: ['library'], offline: true, tool: 'list_library' },
  },
  entry: {
    kind: 'single',
    about: 'One library entry',
    view: entryView,
    titles: true,
    api: { endpoint: 'entry', query: () => ({}), id: 'library entry' },
    mirror: (db, { id }) => (id === undefined ? undefined : entryWithHistory(db, id)?.entry),
    surfaces: { command: ['library', 'show'], offline: false, tool: 'get_entry' },
  },
  entryHistory: {
    kind: 'listing',
    about: 'The history of one entry',
    view: historyView,
    paged: true,
    titles: true,
    api: { endpoint: 'entryHistory', query: () => ({}), id: 'library entry' },
    mirror: (db, { id }, window) => whole((id === undefined ? undefined : entryWithHistory(db, id)?.history) ?? [], window),
    surfaces: { command: ['library', 'history'], offline: false, tool: 'get_entry' },
  },
  history: {
    kind: 'listing',
    about: 'History events in a window of dates',
    takes: ['domain', 'from', 'to'],
    view: historyView,
    paged: true,
    titles: true,
    api: { endpoint: 'history', query: ({ from, to, domain }) => ({ from, to, domain }) },
    mirror: (db, { domain, from, to }, window) =>
      historyItems(db, { domain: upper(domain), from: bound(from, 'start'), to: bound(to, 'end') }, window),
    surfaces: { command: ['history'], offline: true, tool: 'history' },
  },
  lists: {
    kind: 'listing',
    about: 'Your lists',
    view: listView,
    paged: true,
    titles: true,
    api: { endpoint: 'lists', query: () => ({}) },
    mirror: (db, _filters, window) => whole(tableItems(db, 'lists'), window),
    surfaces: { command: ['lists'], offline: true, tool: 'list_lists' },
  },
  list: {
    kind: 'single',
    about: 'One list with its items',
    write: renderListWithItems,
    titles: true,
    api: { endpoint: 'list', query: () => ({}), id: 'list' },
    surfaces: { command: ['lists', 'show'], offline: false },
  },
  calendar: {
    kind: 'listing',
    about: 'Upcoming episodes of followed shows',
    takes: ['domain'],
    view: calendarView,
    paged: false,
    titles: true,
    api: { endpoint: 'calendar', query: ({ domain }) => ({ domain }), followIfPaged: true },
    // As online, it starts today: episodes that aired since the sync are left out.
    mirror: (db, { domain }, window, now) => whole(upcomingCalendar(db, { domain: upper(domain) }, now), window),
    surfaces: { command: ['calendar'], offline: true, tool: 'calendar' },
  },
  stats: {
    kind: 'single',
    about: 'The stats summary of the account',
    layout: 'sections',
    titles: false,
    api: { endpoint: 'stats', query: ({ domain }) => ({ domain }), lang: false },
    mirror: (db, { domain }) => {
      if (domain !== undefined) {
        throw new UsageError(
          '--domain with --offline: the mirror keeps the stats summary of the whole account',
          'Leave out --domain, or drop --offline to ask the server.',
        );
      }
      const summary = statsSnapshot(db);
      if (summary === undefined) throw new UsageError('the mirror holds no stats summary (the key lacked stats:read when it synced)');
      return summary;
    },
    surfaces: { command: ['stats'], offline: true, tool: 'stats' },
  },
  reviews: {
    kind: 'listing',
    about: 'Your reviews',
    takes: ['domain'],
    view: reviewView,
    paged: true,
    titles: true,
    api: { endpoint: 'reviews', query: ({ domain }) => ({ domain }) },
    mirror: (db, { domain }, window) => whole(tableItems(db, 'reviews', { domain: upper(domain) }), window),
    surfaces: { command: ['reviews'], offline: true, tool: 'list_reviews' },
  },
  profile: {
    kind: 'single',
    about: 'The profile',
    layout: 'sections',
    titles: false,
    api: { endpoint: 'profile', query: () => ({}), lang: false },
    surfaces: { command: ['profile'], offline: false },
  },
  achievements: {
    kind: 'listing',
    about: 'Your achievements',
    view: achievementView,
    paged: true,
    titles: false,
    api: { endpoint: 'achievements', query: () => ({}), lang: false },
    mirror: (db, _filters, window) => whole(tableItems(db, 'achievements'), window),
    surfaces: { command: ['profile', 'achievements'], offline: false, tool: 'list_achievements' },
  },
  notifications: {
    kind: 'listing',
    about: 'Your notifications',
    view: notificationView,
    paged: true,
    titles: true,
    api: { endpoint: 'notifications', query: () => ({}), lang: false },
    mirror: (db, _filters, window) => whole(tableItems(db, 'notifications'), window),
    surfaces: { command: ['notifications'], offline: true, tool: 'list_notifications' },
  },
  next: {
    kind: 'composed',
    about: 'What to take up next',
    view: nextView,
    titles: true,
    surfaces: { command: ['next'], offline: true, route: '/next.json', tool: 'next_up' },
  },
  status: {
    kind: 'composed',
    about: 'What is going on',
    titles: true,
    surfaces: { command: ['status'], offline: true, route: '/status.json', tool: 'status' },
  },
  search: {
    kind: 'listing',
    about: 'Full-text search of the library',
    takes: ['domain', 'phase'],
    view: entryView,
    paged: true,
    titles: true,
    mirror: (db, { text, domain, phase }, window) => searchEntries(db, text ?? '', { domain: upper(domain), phase: upper(phase) }, window),
    surfaces: { command: ['search'], offline: true, tool: 'search' },
  },
  feed: {
    kind: 'composed',
    about: 'Recent activity as a feed',
    titles: false,
    mirrorOnly: true,
    surfaces: { command: ['feed'], offline: true, route: '/feed.json' },
  },
  yearInReview: { kind: 'composed', about: 'A year in review', titles: false, mirrorOnly: true, surfaces: { command: ['report'], offline: true } },
  // No command: lk mcp's recommend prompt and tool (composed.ts tasteReading).
  taste: {
    kind: 'composed',
    about: 'A taste profile to recommend from',
    titles: true,
    mirrorOnly: true,
    surfaces: { command: [], offline: true, tool: 'recommend' },
  },
} as const satisfies Record<string, Reading>;

export type ReadingName = keyof typeof READINGS;
