import { UsageError } from '../util/errors.js';
import type { Database } from '../mirror/open.js';
import { calendarChanges, mirrorChangedAt, mirrorStamp } from '../mirror/read.js';
import { jsonListingText, jsonValueText } from '../output/formats/json.js';
import { DEFAULT_NEXT_LIMIT, nextLimit, overviewSource, readFeed, readNext, readStatus } from '../readings/overview.js';
import { EVERYTHING } from '../readings/pages.js';
import { READINGS } from '../readings/table.js';
import type * as Report from '../report/index.js';
import { calendarFeed } from '../output/formats/ics.js';
import { reportPeriod } from '../report/period.js';
import { localToday } from '../report/time-zone.js';

/**
 * What each address of `lk serve` answers: the bytes the matching command writes offline (to a pipe), made by the
 * same functions from the same mirror. Nothing here reads a file but the mirror: a path names a document, never a file.
 */

/** `lk report`'s bundle (dist/report.cjs), loaded by the first request that needs it. */
export type ReportModule = typeof Report;

export interface Document {
  body: string;
  type: string;
  /** Headers of this kind of document (the report's and the index's Content-Security-Policy). */
  headers?: Record<string, string>;
}

export interface DocumentContext {
  db: Database;
  now: number;
  /** The zone of "this year" and of a report's days when the profile names none (TZ, else this machine's). */
  timeZone: string;
  report: () => Promise<ReportModule>;
}

type Builder = (context: DocumentContext) => Promise<Document | undefined>;

const JSON_TYPE = 'application/json; charset=utf-8';

/** A page that loads nothing: inline styles only (the report draws its charts into itself, with no script). */
export const PAGE_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** `lk calendar --offline --format ics`. */
async function calendar({ db, now }: DocumentContext): Promise<Document> {
  const items = [...READINGS.calendar.mirror(db, {}, EVERYTHING, now).items];
  const feed = calendarFeed(items, { now: mirrorStamp(db, now), changedAt: calendarChanges(db, items), spoilerFree: false });
  return { body: feed.text, type: 'text/calendar; charset=utf-8' };
}

/** `lk feed --public` (Atom) and `lk feed --public --json`: what a public page shows, never the notes. */
function feed(format: 'atom' | 'json'): Builder {
  return async ({ db }) => {
    const document = await readFeed(db, { format, publicOnly: true });
    return { body: document.text, type: format === 'atom' ? 'application/atom+xml; charset=utf-8' : 'application/feed+json; charset=utf-8' };
  };
}

/** `lk status --json --offline`, its mirror.syncedAt the last sync that changed the data. */
async function status({ db, now, timeZone }: DocumentContext): Promise<Document> {
  // The mirror's data as of their last change: a sync that changed nothing changes no byte (nor the ETag).
  const answer = await readStatus(overviewSource({ mirror: db }), { now, timeZone, mirror: { syncedAt: mirrorChangedAt(db) }, offline: true });
  return { body: jsonValueText(answer), type: JSON_TYPE };
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
  const build: Builder = async ({ db, now }) => {
    const answer = await readNext(overviewSource({ mirror: db }), { limit: all ? undefined : limit, now });
    return { body: jsonListingText(answer.items), type: JSON_TYPE };
  };
  return { key: all ? '/next.json?all' : `/next.json?limit=${limit}`, build };
}

/** `lk report --year YYYY -o -`; none (404) for a year with nothing to review, where the command exits 1. */
function report(year: string): Builder {
  return async ({ db, now, timeZone, report: load }) => {
    const period = reportPeriod({ year }, localToday(now, timeZone));
    const module = await load();
    const figures = module.reportFigures(db, { period, fallbackTimeZone: timeZone });
    if (module.isEmpty(figures)) return undefined;
    const body = module.reportPage(figures, new Date(mirrorStamp(db, now)).toISOString());
    return { body, type: 'text/html; charset=utf-8', headers: { 'content-security-policy': PAGE_POLICY } };
  };
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

/** Each route: what to make, given the request's query (only /next.json reads one; `token` is the server's). */
const FIXED: Record<string, (query: URLSearchParams) => Route | BadQuery> = {
  '/calendar.ics': fixed('/calendar.ics', calendar),
  '/feed.atom': fixed('/feed.atom', feed('atom')),
  '/feed.json': fixed('/feed.json', feed('json')),
  '/status.json': fixed('/status.json', status),
  '/next.json': next,
};

/**
 * The builder of a path exactly as the request line has it (no decoding: `%2e`, `..`, `//` name nothing), or
 * undefined: 404. `/` is the index, made in index-page.ts.
 */
export function documentAt(path: string, query = new URLSearchParams()): Route | BadQuery | undefined {
  if (Object.hasOwn(FIXED, path)) return FIXED[path]!(query);
  const year = /^\/report\/(\d{4})\.html$/.exec(path)?.[1];
  return year !== undefined && Number(year) >= 1970 ? { key: path, build: report(year) } : undefined;
}
