import { existsSync } from 'node:fs';
import type { FeedDocument, FeedFormat } from '../feed/document.js';
import { nodeHasSqlite } from '../mirror/open.js';
import { calendarChanges, mirrorAge, mirrorChangedAt, mirrorStamp } from '../mirror/read.js';
import type { Status } from '../overview/status.js';
import { calendarFeed, type Feed } from '../output/formats/ics.js';
import type { Period, ReportFigures } from '../report/figures.js';
import { tasteProfile, type TasteProfile } from '../overview/taste.js';
import { reportPeriod, withinDataYears, type PeriodFlags } from '../report/period.js';
import { localToday } from '../report/time-zone.js';
import { MIRROR_NODE } from '../util/newer-node.js';
import { listingPages, sourceOf } from './engine.js';
import { mirrorFor, type ReadingHost } from './host.js';
import { syncedAtOf } from './mirror-handle.js';
import {
  DEFAULT_FEED_LIMIT,
  overviewSource,
  readFeed,
  readNext,
  readStatus,
  type NextAnswer,
  type NextRequest,
  type OverviewSource,
} from './overview.js';
import { EVERYTHING } from './pages.js';
import { READINGS } from './table.js';

/**
 * The composed readings, each run here once for every surface that serves it: lk next (/next.json, next_up), lk status
 * (/status.json, the status tool, lk://status), lk feed (/feed.*), lk calendar --format ics (/calendar.ics), and the
 * year in review (lk report, /report/YYYY.html, the stats tool's figures, lk://report/{year}, the year-in-review
 * prompt), the taste profile (lk mcp's recommend prompt and tool). A surface says only what it asks; the host says
 * where it may read and for whom.
 */

/** `lk report`'s figures and page (dist/report.cjs, with its charts): loaded by the first review that needs it. */
const reportModule = () => import('../report/index.js');

/** Where the overview readings read: the API (in the run's language) or the host's mirror. */
async function overviewOf(host: ReadingHost, reading: 'next' | 'status', offline: boolean): Promise<OverviewSource> {
  if (sourceOf(host, READINGS[reading], offline) === 'api') return overviewSource({ api: await host.api!(), lang: host.language?.().wanted });
  return overviewSource({ mirror: await mirrorFor(host, READINGS[reading]) });
}

/** What to take up next. */
export async function nextReading(host: ReadingHost, request: Omit<NextRequest, 'now'>, offline = false): Promise<NextAnswer> {
  return readNext(await overviewOf(host, 'next', offline), { ...request, now: host.now() });
}

/**
 * What is going on. `asOfChange`: generatedAt is the last sync that changed the data (lk serve: a sync that changed
 * nothing changes no byte, nor the ETag), not the last sync.
 */
export async function statusReading(host: ReadingHost, { offline = false, asOfChange = false } = {}): Promise<Status> {
  const source = await overviewOf(host, 'status', offline);
  const request = { now: host.now(), timeZone: host.timeZone() };
  if (sourceOf(host, READINGS.status, offline) === 'mirror') {
    const db = await mirrorFor(host, READINGS.status);
    return readStatus(source, { ...request, mirror: { syncedAt: asOfChange ? mirrorChangedAt(db) : mirrorAge(db).syncedAt }, offline: true });
  }
  // Online: the mirror beside the answer, read in passing (or the Node a mirror that is there needs).
  const { path } = await host.mirror();
  const needsNode = !nodeHasSqlite() && existsSync(path) ? MIRROR_NODE : undefined;
  return readStatus(source, { ...request, mirror: { syncedAt: needsNode ? null : syncedAtOf(path), needsNode }, offline: false });
}

export interface FeedAsked {
  format: FeedFormat;
  limit?: number | undefined;
  domain?: string | undefined;
  since?: number | undefined;
  /** The site the feed belongs to (lk publish --base-url): its links absolute. */
  siteUrl?: string | undefined;
}

/** Recent activity as Atom or JSON Feed, from the mirror: for a public host, what a public page shows. */
export async function feedReading(host: ReadingHost, asked: FeedAsked): Promise<FeedDocument> {
  const db = await mirrorFor(host, READINGS.feed);
  return readFeed(db, { ...asked, limit: asked.limit ?? DEFAULT_FEED_LIMIT, publicOnly: host.audience === 'public' });
}

export { DEFAULT_FEED_LIMIT };

/** The calendar as an iCalendar feed, with how many upcoming episodes it was made from. */
export async function calendarIcs(
  host: ReadingHost,
  asked: { domain?: string | undefined; spoilerFree: boolean },
  offline = false,
): Promise<{ feed: Feed; items: number }> {
  const spoilerFree = asked.spoilerFree;
  if (sourceOf(host, READINGS.calendar, offline) === 'api') {
    // The calendar listing as the engine reads it from the API: whole, following pages only if the instance pages it.
    const items: unknown[] = [];
    for await (const page of listingPages(host, 'calendar', { domain: asked.domain }, {}, false)) items.push(...page.items);
    return { feed: calendarFeed(items, { now: host.now(), spoilerFree }), items: items.length };
  }
  // Each event stamped with its last change as the data say: unchanged data give the same bytes (lk serve's ETag).
  const db = await mirrorFor(host, READINGS.calendar);
  const now = host.now();
  const items = [...READINGS.calendar.mirror(db, { domain: asked.domain }, EVERYTHING, now).items];
  return { feed: calendarFeed(items, { now: mirrorStamp(db, now), changedAt: calendarChanges(db, items), spoilerFree }), items: items.length };
}

export interface Review {
  period: Period & { label: string; through?: string };
  figures: ReportFigures;
  /** Nothing to review: no dated event and no finished work in the period. */
  empty: boolean;
  /** The days the mirror holds dated events in (for the hint of an empty review). */
  datedSpan: { first: string; last: string } | undefined;
  /** The mirror's last change: "generated" on the page, the same for the same mirror. */
  stamp: number;
}

/**
 * A year (or any days) in review, from the mirror. `cutToData`: the period cut to the years that hold data (an
 * assistant's ten-thousand-year period would be megabytes of zeros).
 */
export async function yearInReview(host: ReadingHost, asked: PeriodFlags, { cutToData = false } = {}): Promise<Review> {
  const timeZone = host.timeZone();
  const today = localToday(host.now(), timeZone);
  const period = reportPeriod(asked, today);
  const db = await mirrorFor(host, READINGS.yearInReview);
  const report = await reportModule();
  const within = cutToData ? withinDataYears(period, report.dataYears(db), today) : period;
  const figures = report.reportFigures(db, { period: within, fallbackTimeZone: timeZone });
  const empty = report.isEmpty(figures);
  return { period, figures, empty, datedSpan: empty ? report.datedSpan(db) : undefined, stamp: mirrorStamp(db, host.now()) };
}

/** The year in review as its page (lk report's HTML, /report/YYYY.html). */
export async function reviewPage(review: Review): Promise<string> {
  return (await reportModule()).reportPage(review.figures, new Date(review.stamp).toISOString());
}

/** The period a review is asked for, checked before anything is read (lk report's flags). */
export function reviewPeriod(host: ReadingHost, asked: PeriodFlags) {
  return reportPeriod(asked, localToday(host.now(), host.timeZone()));
}

/** The years the mirror holds dated events in, newest first (lk serve's index). */
export async function reviewedYears(host: ReadingHost): Promise<number[]> {
  const span = (await reportModule()).datedSpan(await mirrorFor(host));
  const years: number[] = [];
  if (span) for (let year = Number(span.last.slice(0, 4)); year >= Number(span.first.slice(0, 4)); year -= 1) years.push(year);
  return years;
}

/** The account's taste, from the mirror: its best rated, last finished and dropped works and its ratings' spread. */
export async function tasteReading(host: ReadingHost, asked: { domain?: string | undefined }): Promise<TasteProfile> {
  return tasteProfile(await mirrorFor(host, READINGS.taste), { domain: asked.domain?.toUpperCase() });
}
