import type { Database } from '../mirror/open.js';
import type * as Report from '../report/index.js';

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
  const { upcomingCalendar, mirrorStamp, calendarChanges } = await import('../mirror/read.js');
  const { calendarFeed } = await import('../output/formats/ics.js');
  const items = upcomingCalendar(db, {}, now);
  const feed = calendarFeed(items, { now: mirrorStamp(db, now), changedAt: calendarChanges(db, items), spoilerFree: false });
  return { body: feed.text, type: 'text/calendar; charset=utf-8' };
}

/** `lk feed --public` (Atom) and `lk feed --public --json`: what a public page shows, never the notes. */
function feed(format: 'atom' | 'json'): Builder {
  return async ({ db }) => {
    const { makeFeed } = await import('../feed/document.js');
    const document = await makeFeed(db, { format, limit: 50, domain: undefined, since: undefined, publicOnly: true });
    return { body: document.text, type: format === 'atom' ? 'application/atom+xml; charset=utf-8' : 'application/feed+json; charset=utf-8' };
  };
}

/** `lk status --json --offline`, its mirror.syncedAt the last sync that changed the data. */
async function status({ db, now, timeZone }: DocumentContext): Promise<Document> {
  const { mirrorChangedAt } = await import('../mirror/read.js');
  const { mirrorSource } = await import('../overview/mirror-source.js');
  const { statusOf, syncState } = await import('../overview/status.js');
  const { jsonValueText } = await import('../output/formats/json.js');
  // The mirror's data as of their last change: a sync that changed nothing changes no byte (nor the ETag).
  const answer = await statusOf(mirrorSource(db), { now, timeZone, ...syncState(true, mirrorChangedAt(db)) });
  return { body: jsonValueText(answer), type: JSON_TYPE };
}

/** `lk next --json --offline`. */
async function next({ db, now }: DocumentContext): Promise<Document> {
  const { mirrorSource } = await import('../overview/mirror-source.js');
  const { nextUp, DEFAULT_NEXT_LIMIT } = await import('../overview/next.js');
  const { jsonListingText } = await import('../output/formats/json.js');
  const answer = await nextUp(mirrorSource(db), { domain: undefined, limit: DEFAULT_NEXT_LIMIT, now });
  return { body: jsonListingText(answer.items), type: JSON_TYPE };
}

/** `lk report --year YYYY -o -`; none (404) for a year with nothing to review, where the command exits 1. */
function report(year: string): Builder {
  return async ({ db, now, timeZone, report: load }) => {
    const { reportPeriod } = await import('../report/period.js');
    const { localToday } = await import('../report/time-zone.js');
    const { mirrorStamp } = await import('../mirror/read.js');
    const period = reportPeriod({ year }, localToday(now, timeZone));
    const module = await load();
    const figures = module.reportFigures(db, { period, fallbackTimeZone: timeZone });
    if (module.isEmpty(figures)) return undefined;
    const body = module.reportPage(figures, new Date(mirrorStamp(db, now)).toISOString());
    return { body, type: 'text/html; charset=utf-8', headers: { 'content-security-policy': PAGE_POLICY } };
  };
}

const FIXED: Record<string, Builder> = {
  '/calendar.ics': calendar,
  '/feed.atom': feed('atom'),
  '/feed.json': feed('json'),
  '/status.json': status,
  '/next.json': next,
};

/**
 * The builder of a path exactly as the request line has it (no decoding: `%2e`, `..`, `//` name nothing), or
 * undefined: 404. `/` is the index, made in index-page.ts.
 */
export function documentAt(path: string): Builder | undefined {
  if (Object.hasOwn(FIXED, path)) return FIXED[path];
  const year = /^\/report\/(\d{4})\.html$/.exec(path)?.[1];
  return year !== undefined && Number(year) >= 1970 ? report(year) : undefined;
}
