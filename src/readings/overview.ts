import { randomInt } from 'node:crypto';
import type { ApiReader } from '../api/client.js';
import { makeFeed, type FeedDocument, type FeedFormat } from '../feed/document.js';
import type { Database } from '../mirror/open.js';
import { apiSource } from '../overview/api-source.js';
import { mirrorSource } from '../overview/mirror-source.js';
import { DEFAULT_NEXT_LIMIT, nextUp, randomPlanned, type NextItem, type NextSource } from '../overview/next.js';
import { statusOf, syncState, type Status, type StatusSource } from '../overview/status.js';
import { wholeNumber } from '../util/whole-number.js';

/**
 * The three readings that are composed rather than read (lk next, lk status, lk feed), composed here once for every
 * surface: the command (online or --offline), lk serve's /next.json, /status.json and /feed.*, and lk mcp's next_up
 * and status. Each surface only says where it reads (the API or the mirror) and wraps the answer in its envelope.
 */

export type OverviewSource = NextSource & StatusSource;

/** Where the overview readings read: the API (the run's client, in its language) or an open mirror. */
export type OverviewFrom = { api: ApiReader; lang: string | undefined } | { mirror: Database };

export function overviewSource(from: OverviewFrom): OverviewSource {
  return 'mirror' in from ? mirrorSource(from.mirror) : apiSource(from.api, from.lang);
}

export { DEFAULT_NEXT_LIMIT };

/**
 * The most entries next lists at once, the same on every surface (lk next --limit, /next.json?limit, next_up's limit);
 * every one is --all (?all) where a surface offers it.
 */
export const MOST_NEXT_LIMIT = 100;

/** next's limit as typed (--limit, ?limit): from 1 to MOST_NEXT_LIMIT, or the usage error each surface says as it is. */
export function nextLimit(name: string, raw: string): number {
  return wholeNumber(name, raw, 1, MOST_NEXT_LIMIT);
}

export interface NextRequest {
  domain?: string | undefined;
  /** At most this many entries in progress; undefined for all. */
  limit?: number | undefined;
  /** One PLANNED entry picked uniformly instead (with `seed`, the same pick for the same seed and library). */
  random?: boolean | undefined;
  seed?: number | undefined;
  now: number;
}

export interface NextAnswer {
  items: NextItem[];
  /** The entries in progress in all; null for a random pick. */
  total: number | null;
}

/** The pick of --random without a seed: uniform, from the system's randomness (never Math.random). */
const pick = (count: number) => randomInt(count);

/** `lk next`, /next.json and next_up: the entries in progress, or one planned entry at random. */
export async function readNext(source: NextSource, request: NextRequest): Promise<NextAnswer> {
  const { domain, now } = request;
  if (!request.random) return nextUp(source, { domain, limit: request.limit, now });
  const item = await randomPlanned(source, { domain, seed: request.seed, now, random: pick });
  return { items: item === undefined ? [] : [item], total: null };
}

export interface StatusRequest {
  now: number;
  /** The IANA zone whose calendar year "this year" is. */
  timeZone: string;
  /**
   * The mirror beside the answer: when it was synced (null: no mirror to read), and offline the moment the answer is
   * the mirror's (its generatedAt); `needsNode` when a mirror is there that this Node cannot read.
   */
  mirror: { syncedAt: number | null | undefined; needsNode?: string | undefined };
  /** Answered from the mirror: generatedAt is mirror.syncedAt, the answer holding while the mirror is unchanged. */
  offline: boolean;
}

/** `lk status --json`, /status.json and the status tool. */
export function readStatus(source: StatusSource, request: StatusRequest): Promise<Status> {
  return statusOf(source, {
    now: request.now,
    timeZone: request.timeZone,
    ...syncState(request.offline, request.mirror.syncedAt),
    mirrorNeedsNode: request.mirror.needsNode,
  });
}

/** How many entries a feed holds without --limit (lk feed, lk serve's /feed.atom and /feed.json). */
export const DEFAULT_FEED_LIMIT = 50;

export interface FeedRequest {
  format: FeedFormat;
  limit?: number | undefined;
  domain?: string | undefined;
  since?: number | undefined;
  /** Notes, private reviews and the text of spoiler reviews left out (lk feed --public; lk serve always). */
  publicOnly: boolean;
}

/** The feed's items, the newest dated events of the mirror, as Atom or JSON Feed. */
export function readFeed(db: Database, request: FeedRequest): Promise<FeedDocument> {
  return makeFeed(db, { ...request, limit: request.limit ?? DEFAULT_FEED_LIMIT });
}
