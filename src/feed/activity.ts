import type { Database } from '../mirror/open.js';
import { isObject } from '../util/json-value.js';
import { text } from '../items/values.js';
import { reviewIsPrivate, reviewIsSpoiler } from '../items/review.js';
import { workTitleOf, workTypeOf } from '../items/work.js';
import type { ActivityKind, FeedEvent, FeedItemFacts, FeedReview } from '../output/wording/feed-text.js';

/**
 * The account's recent activity, read from the mirror's history: each dated event becomes one item of the feed,
 * except episodes (grouped per show and day) and game or reading sessions (grouped per work and day), newest first.
 * Only what docs/api.md fixes is relied on (an event's date and cycle, the work's url); an event's kind, its id, a work's
 * title or type are read when present, under the spellings the mirror knows, and items stay whole without them.
 */

export interface ActivityEvent extends FeedEvent {
  date: string;
}

export interface Activity extends FeedItemFacts {
  /** What identifies this item across runs and re-syncs (src/feed/ids.ts makes the feed's id from it). */
  key: string;
  entryId: string | undefined;
  workId: string | undefined;
  /** The events of the item, newest first (several for grouped episodes and sessions). */
  events: ActivityEvent[];
  /** The entry's page in the web app, else the work's. */
  url: string | undefined;
}

export interface ActivityQuery {
  limit: number;
  domain?: string | undefined;
  /** Only events at or after this moment (ms). */
  since?: number | undefined;
}

export interface MirrorFacts {
  account: string | undefined;
  baseUrl: string | undefined;
  /** The date of the newest dated event in the whole mirror. */
  newestEvent: string | undefined;
  /** The web application's address (https://app.example/), the origin most of the works' url share. */
  webApp: string | undefined;
  /** The profile as synced (GET /v1/profile), when the key had profile:read. */
  profile: Record<string, unknown> | undefined;
  /** 5, 10 or 100: the smallest that holds every rating in the library (undefined when none is rated). */
  ratingScale: number | undefined;
  /** The zone whose days group episodes and sessions: the profile's, else UTC. */
  timeZone: string;
}

const KINDS: Array<[RegExp, ActivityKind]> = [
  [/EPISODE/, 'episodes'],
  [/SESSION/, 'sessions'],
  [/FILM|MOVIE/, 'film'],
  [/FINISH|COMPLET|READ$|LISTENED|BEATEN/, 'finished'],
];

export function activityKind(kind: string | undefined): ActivityKind {
  const name = (kind ?? '').toUpperCase().replace(/[^A-Z]+/g, '_');
  return KINDS.find(([pattern]) => pattern.test(name))?.[1] ?? 'other';
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function str(value: unknown): string | undefined {
  return text(value) ?? undefined;
}

function parse(json: unknown): Record<string, unknown> {
  if (typeof json !== 'string') return {};
  const value = JSON.parse(json) as unknown;
  return isObject(value) ? value : {};
}

export function mirrorFacts(db: Database): MirrorFacts {
  const meta = (key: string) => str(db.prepare('SELECT value FROM mirror_meta WHERE key = ?').get(key)?.value);
  const profileRow = db.prepare('SELECT json FROM profile LIMIT 1').get();
  const profile = profileRow ? parse(profileRow.json) : undefined;
  const highest = num(db.prepare('SELECT max(rating) AS top FROM entries').get()?.top);
  const zone = str(profile?.timezone);
  return {
    account: meta('account'),
    baseUrl: meta('base_url'),
    webApp: commonOrigin(
      db
        .prepare("SELECT url FROM works WHERE url LIKE 'http%' ORDER BY id LIMIT 500")
        .all()
        .map((row) => row.url),
    ),
    newestEvent: str(db.prepare('SELECT max(date) AS newest FROM history').get()?.newest),
    profile,
    ratingScale: highest === undefined ? undefined : [5, 10, 100].find((scale) => highest <= scale),
    timeZone: zone !== undefined && isTimeZone(zone) ? zone : 'UTC',
  };
}

/** The http(s) origin most of `urls` share (the first of those tied); undefined when none is a web address. */
function commonOrigin(urls: unknown[]): string | undefined {
  const counts = new Map<string, number>();
  for (const url of urls) {
    try {
      const { protocol, origin } = new URL(String(url));
      if (protocol === 'https:' || protocol === 'http:') counts.set(`${origin}/`, (counts.get(`${origin}/`) ?? 0) + 1);
    } catch {
      // not a URL: no address to learn from it
    }
  }
  let best: [string, number] | undefined;
  for (const entry of counts) if (best === undefined || entry[1] > best[1]) best = entry;
  return best?.[0];
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

function dayOf(date: string, timeZone: string): string {
  if (timeZone === 'UTC') return new Date(date).toISOString().slice(0, 10);
  // One formatter per zone: making one costs more than formatting a thousand dates.
  let format = dayFormats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format.format(new Date(date));
}

interface Row {
  json: unknown;
  date: unknown;
  kind: unknown;
  entry_id: unknown;
  work_id: unknown;
  entry: unknown;
  work: unknown;
  domain: unknown;
  rating: unknown;
  notes: unknown;
}

/** The newest `limit` items of activity, newest first. Reads events newest first and stops once the items are complete. */
export function readActivity(db: Database, query: ActivityQuery, facts: MirrorFacts): Activity[] {
  // Dates are ISO 8601 in UTC with milliseconds (docs/api.md, The service): as text they sort as time does.
  const rows = db
    .prepare(
      `SELECT h.json, h.date, h.kind, h.entry_id, coalesce(h.work_id, e.work_id) AS work_id, e.json AS entry, w.json AS work,
              coalesce(e.domain, w.domain) AS domain, e.rating, e.notes
       FROM history h LEFT JOIN entries e ON e.id = h.entry_id LEFT JOIN works w ON w.id = coalesce(h.work_id, e.work_id)
       WHERE h.date IS NOT NULL AND (:domain IS NULL OR coalesce(e.domain, w.domain) = :domain) AND (:since IS NULL OR h.date >= :since)
       ORDER BY h.date DESC, h.position ASC`,
    )
    .iterate({ domain: query.domain ?? null, since: query.since === undefined ? null : new Date(query.since).toISOString() });
  const items = new Map<string, Activity>();
  let lastDay: string | undefined;
  for (const raw of rows) {
    const row = raw as unknown as Row;
    const date = str(row.date);
    if (date === undefined || Number.isNaN(Date.parse(date))) continue;
    const day = dayOf(date, facts.timeZone);
    // Items of one day can still grow while its events are read; an earlier day starts no item of a full feed.
    if (items.size >= query.limit && day !== lastDay) break;
    lastDay = day;
    const event = parse(row.json);
    const kind = str(row.kind);
    const activityKindOf = activityKind(kind);
    const work = isObject(event.work) ? event.work : parse(row.work);
    const workKey = str(row.work_id) ?? str(work.id) ?? str(row.entry_id) ?? 'unknown';
    const key =
      activityKindOf === 'episodes' || activityKindOf === 'sessions'
        ? `${activityKindOf}/${workKey}/${day}${activityKindOf === 'sessions' ? `/${kind ?? ''}` : ''}`
        : `event/${str(event.id) ?? `${str(row.entry_id) ?? workKey}/${kind ?? ''}/${date}/${num(event.cycle) ?? ''}`}`;
    const item = items.get(key) ?? (items.size < query.limit ? newItem(key, activityKindOf, row, work) : undefined);
    if (item === undefined) continue;
    items.set(key, item);
    item.events.push({
      date,
      kind,
      cycle: num(event.cycle),
      season: num(event.season) ?? num(isObject(event.episode) ? event.episode.season : undefined),
      episode: num(isObject(event.episode) ? event.episode.number : event.episode),
      minutes: num(event.minutes),
      pages: num(event.pages),
    });
  }
  const activity = [...items.values()];
  const reviewOf = reviewLookup(db);
  for (const item of activity) {
    if (item.kind === 'finished' || item.kind === 'film') item.review = reviewOf(item);
  }
  return activity;
}

function newItem(key: string, kind: ActivityKind, row: Row, work: Record<string, unknown>): Activity {
  const entry = parse(row.entry);
  const withWork = kind === 'finished' || kind === 'film';
  return {
    key,
    kind,
    entryId: str(row.entry_id),
    workId: str(row.work_id),
    events: [],
    title: str(workTitleOf(work) ?? workTitleOf(entry.work)),
    type: str(workTypeOf(work)),
    domain: str(row.domain),
    url: str(entry.url) ?? str(work.url),
    // The entry's rating and notes speak of the work as a whole: they go with finishing it or seeing a film.
    rating: withWork ? num(row.rating) : undefined,
    notes: withWork ? str(row.notes) : undefined,
    review: undefined,
  };
}

/** The account's newest review of an entry (or, for a review that names no entry, of the work). */
function reviewLookup(db: Database): (of: Pick<Activity, 'entryId' | 'workId'>) => FeedReview | undefined {
  // Two lookups, each on its index: by the entry, else by the work.
  const byEntry = db.prepare('SELECT json, title, body FROM reviews WHERE entry_id = ? ORDER BY position LIMIT 1');
  const byWork = db.prepare('SELECT json, title, body FROM reviews WHERE entry_id IS NULL AND work_id = ? ORDER BY position LIMIT 1');
  return (of) => {
    const row = (of.entryId === undefined ? undefined : byEntry.get(of.entryId)) ?? (of.workId === undefined ? undefined : byWork.get(of.workId));
    if (!row) return undefined;
    const review = parse(row.json);
    return { title: str(row.title), body: str(row.body), private: reviewIsPrivate(review), spoiler: reviewIsSpoiler(review) };
  };
}
