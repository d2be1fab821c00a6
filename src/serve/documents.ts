import { cardSvg, isCardKind, THEMES, type CardKind, type Theme } from '../card/index.js';
import { UsageError } from '../util/errors.js';
import { jsonListingText, jsonValueText } from '../output/formats/json.js';
import { calendarIcs, feedReading, nextReading, reviewPage, statusReading, yearInReview } from '../readings/composed.js';
import type { ReadingHost } from '../readings/host.js';
import { siteFile } from '../publish/site.js';
import { DEFAULT_NEXT_LIMIT, nextLimit } from '../readings/overview.js';

/**
 * What each address of `lk serve` answers: the bytes the matching command writes offline (to a pipe), made by the
 * engine (src/readings/) from the same mirror, for a public host: every reading goes through the public projection.
 * Nothing here reads a file but the mirror: a path names a document, never a file. ADDRESSES lists them once, for
 * the routes, the index page (index-page.ts) and `lk serve --help`.
 */

export interface Document {
  body: string;
  type: string;
  /** Headers of this kind of document (the report's and the index's Content-Security-Policy). */
  headers?: Record<string, string>;
}

/** What a document is made with: the public host of the served mirror, its clock stopped at the request's moment. */
export interface DocumentContext {
  host: ReadingHost;
}

type Builder = (context: DocumentContext) => Promise<Document | undefined>;

const JSON_TYPE = 'application/json; charset=utf-8';

/** A page that loads nothing: inline styles only (the report draws its charts into itself, with no script). */
export const PAGE_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** `lk calendar --offline --format ics`. */
async function calendar({ host }: DocumentContext): Promise<Document> {
  const { feed } = await calendarIcs(host, { spoilerFree: false }, true);
  return { body: feed.text, type: 'text/calendar; charset=utf-8' };
}

/** `lk feed --public` (Atom) and `lk feed --public --json`: what a public page shows, never the notes. */
function feed(format: 'atom' | 'json'): Builder {
  return async ({ host }) => {
    const document = await feedReading(host, { format });
    return { body: document.text, type: format === 'atom' ? 'application/atom+xml; charset=utf-8' : 'application/feed+json; charset=utf-8' };
  };
}

/** `lk status --json --offline`, its mirror.syncedAt the last sync that changed the data. */
async function status({ host }: DocumentContext): Promise<Document> {
  // The mirror's data as of their last change: a sync that changed nothing changes no byte (nor the ETag).
  return { body: jsonValueText(await statusReading(host, { offline: true, asOfChange: true })), type: JSON_TYPE };
}

/**
 * `lk next --json --offline`: its default (20 entries) unless `?limit=N` or `?all` asks as --limit and --all do; any
 * other value is refused (400), as the command refuses it.
 */
function next(query: URLSearchParams): Route | BadQuery {
  const all = query.has('all');
  const raw = query.get('limit');
  if (all && raw !== null) return new BadQuery('?all and ?limit: choose one');
  let limit = DEFAULT_NEXT_LIMIT;
  try {
    if (raw !== null) limit = nextLimit('?limit', raw);
  } catch (error) {
    if (error instanceof UsageError) return new BadQuery(error.message);
    throw error;
  }
  const build: Builder = async ({ host }) => {
    const answer = await nextReading(host, { limit: all ? undefined : limit }, true);
    return { body: jsonListingText(answer.items), type: JSON_TYPE };
  };
  return { key: all ? '/next.json?all' : `/next.json?limit=${limit}`, build };
}

/** `lk report --year YYYY -o -`; none (404) for a year with nothing to review, where the command exits 1. */
function report(year: string): Builder {
  return async ({ host }) => {
    const review = await yearInReview(host, { year });
    if (review.empty) return undefined;
    return { body: await reviewPage(review), type: 'text/html; charset=utf-8', headers: { 'content-security-policy': PAGE_POLICY } };
  };
}

/** A page of the site (lk publish's, built from the served mirror): its links relative, its styles inline. */
const SITE_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const SITE_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
  json: 'application/feed+json; charset=utf-8',
  svg: 'image/svg+xml; charset=utf-8',
};

/** `lk publish`'s file NAME, made from the served mirror; none (404) for a name the site has not. */
function siteDocument(name: string): Builder {
  return async ({ host }) => {
    const body = await siteFile(host, name);
    const type = SITE_TYPES[name.slice(name.lastIndexOf('.') + 1)];
    if (body === undefined || type === undefined) return undefined;
    return { body, type, headers: { 'content-security-policy': SITE_POLICY } };
  };
}

/**
 * `lk card KIND` (its default theme, light), or `?theme=dark|auto` as --theme; any other theme is refused (400). An
 * image for a README or a dashboard: an SVG with no script, under the pages' policy (its style inline).
 */
function card(kind: CardKind, query: URLSearchParams): Route | BadQuery {
  const theme = query.get('theme') ?? 'light';
  if (!(THEMES as readonly string[]).includes(theme)) return new BadQuery(`invalid ?theme "${theme}": expected ${THEMES.join(', ')}`);
  const build: Builder = async ({ host }) => ({
    body: await cardSvg(host, kind, theme as Theme),
    type: 'image/svg+xml; charset=utf-8',
    headers: { 'content-security-policy': PAGE_POLICY },
  });
  return { key: `/card/${kind}.svg?theme=${theme}`, build };
}

/** A query a route does not take as it is: 400, with the reason. */
export class BadQuery {
  constructor(readonly reason: string) {}
}

/** A document to make, and the key its bytes are kept under (its path, with the query it reads). */
export interface Route {
  key: string;
  build: Builder;
}

const fixed = (key: string, build: Builder) => () => ({ key, build });

/** An address of lk serve: its path, the command whose bytes it serves, and what it is for (the index page's words). */
export interface Address {
  path: string;
  command: string;
  what: string;
  /** The document at `path` for a request's query; undefined: a path with a year or a kind in it (made by documentAt). */
  route?: (query: URLSearchParams) => Route | BadQuery;
}

/** Every document lk serve answers, once: its routes, the index page's links and `lk serve --help` read this list. */
export const ADDRESSES: readonly Address[] = [
  {
    path: '/calendar.ics',
    command: 'lk calendar --offline --format ics (subscribe with webcal://HOST:PORT/calendar.ics)',
    what: 'upcoming episodes, for a calendar app (lk calendar --format ics)',
    route: fixed('/calendar.ics', calendar),
  },
  {
    path: '/feed.atom',
    command: 'lk feed --public',
    what: 'recent activity as Atom, for a feed reader (lk feed --public)',
    route: fixed('/feed.atom', feed('atom')),
  },
  {
    path: '/feed.json',
    command: 'lk feed --public --json',
    what: 'the same as JSON Feed 1.1 (lk feed --public --json)',
    route: fixed('/feed.json', feed('json')),
  },
  {
    path: '/status.json',
    command: 'lk status --json --offline',
    what: 'what is going on, for a dashboard (lk status --json)',
    route: fixed('/status.json', status),
  },
  {
    path: '/next.json',
    command: 'lk next --json --offline (?limit=N as --limit N, ?all as --all)',
    what: 'what to take up next (lk next --json)',
    route: next,
  },
  { path: '/report/YYYY.html', command: 'lk report --year YYYY', what: 'a year in review (lk report --year YYYY)' },
  { path: '/site/', command: 'lk publish: the static site, each file at /site/NAME', what: 'the site of this library (lk publish)' },
  {
    path: '/card/KIND.svg',
    command: 'lk card KIND (stats, now, heatmap, year; ?theme=dark or auto as --theme)',
    what: 'an SVG card for a README or a dashboard (lk card KIND)',
  },
];

const FIXED = new Map(ADDRESSES.filter((address) => address.route).map((address) => [address.path, address.route!]));

/**
 * The builder of a path exactly as the request line has it (no decoding: `%2e`, `..`, `//` name nothing), or
 * undefined: 404. `/` is the index, made in index-page.ts.
 */
export function documentAt(path: string, query = new URLSearchParams()): Route | BadQuery | undefined {
  const fixedRoute = FIXED.get(path);
  if (fixedRoute) return fixedRoute(query);
  const site = /^\/site\/((?:[A-Za-z0-9._~-]+\/)?[A-Za-z0-9._~-]*)$/.exec(path)?.[1];
  if (site !== undefined && !site.split('/').some((part) => part.startsWith('.'))) return { key: path, build: siteDocument(site || 'index.html') };
  const kind = /^\/card\/([a-z]+)\.svg$/.exec(path)?.[1];
  if (kind !== undefined) return isCardKind(kind) ? card(kind, query) : undefined;
  const year = /^\/report\/(\d{4})\.html$/.exec(path)?.[1];
  return year !== undefined && Number(year) >= 1970 ? { key: path, build: report(year) } : undefined;
}
