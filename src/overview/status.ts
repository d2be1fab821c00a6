import { DOMAINS } from '../api/vocabulary.js';
import { TimeZone } from '../report/time-zone.js';
import { airsAtOf, episodeOf, seasonOf, showTitleOf } from '../items/calendar.js';
import { ownerOf } from '../items/entry.js';
import { lastDays } from '../util/rolling-window.js';
import { allSettledThenFirstError } from '../util/settle.js';

/** `lk status --json`, schema version 1 (schemas/status.schema.json): add fields freely, rename or remove none. */
export interface Status {
  schemaVersion: 1;
  generatedAt: string;
  inProgress: { total: number; byDomain: Record<string, number> };
  activity: { last7Days: number; last30Days: number; thisYear: number };
  upcoming: Upcoming[];
  notifications: { latest: unknown[] };
  mirror: MirrorState | null;
}

/**
 * The local mirror: its last sync; when this Node cannot read it (before 22.13), `readable: false` and the Node it
 * needs, `needsNode` (syncedAt is then null: it was not read).
 */
export interface MirrorState {
  syncedAt: string | null;
  readable?: false;
  needsNode?: string;
}

export interface Upcoming {
  entryId: string | null;
  title: string | null;
  season: number | null;
  episode: number | null;
  airsAt: string;
}

export interface StatusSource {
  /** How many entries are in progress, by domain (as entryDomainOf reads it; null for an entry without one). */
  inProgressByDomain(): Promise<Map<string | null, number>>;
  /** Dated history events within [from, to] (ms, both included). */
  eventsBetween(from: number, to: number): Promise<number>;
  calendar(domain: undefined): Promise<unknown[]>;
  latestNotifications(count: number): Promise<unknown[]>;
}

const DAY = 86_400_000;
export const UPCOMING_DAYS = 7;
export const NOTIFICATIONS_SHOWN = 5;

export interface StatusOptions {
  now: number;
  /** The IANA zone whose calendar year "this year" is. */
  timeZone: string;
  /** When the mirror was last synced (ms); null when there is no mirror to read, undefined when it does not say. */
  mirrorSyncedAt: number | null | undefined;
  /** What generatedAt says, when not `now`: offline, the mirror's last sync (src/mirror/read.ts mirrorStamp). */
  generatedAt?: number | undefined;
  /** A mirror is there, but this Node cannot read it: the Node it needs (util/newer-node.ts). */
  mirrorNeedsNode?: string | undefined;
}

/**
 * When the mirror was synced, and offline what generatedAt says: the answer is the mirror's, made when it was synced
 * (and it holds while the mirror is unchanged). lk status and lk serve's /status.json, its offline bytes.
 */
export function syncState(
  offline: boolean | undefined,
  mirrorSyncedAt: number | null | undefined,
): Pick<StatusOptions, 'mirrorSyncedAt' | 'generatedAt'> {
  return { mirrorSyncedAt, ...(offline && typeof mirrorSyncedAt === 'number' ? { generatedAt: mirrorSyncedAt } : {}) };
}

/**
 * What is going on: entries in progress per domain; dated events in the last 7 and 30 days (the 7 × 24 and 30 × 24
 * hours up to now) and since the local new year; episodes airing from now to 7 days on; the newest notifications.
 */
export async function statusOf(source: StatusSource, options: StatusOptions): Promise<Status> {
  const { now } = options;
  const zone = new TimeZone(options.timeZone);
  const newYear = zone.startOfDay(zone.localDate(now).year, 1, 1);
  const [counts, last7Days, last30Days, thisYear, calendar, latest] = await allSettledThenFirstError([
    source.inProgressByDomain(),
    source.eventsBetween(...lastDays(now, 7)),
    source.eventsBetween(...lastDays(now, 30)),
    source.eventsBetween(newYear, now),
    source.calendar(undefined),
    source.latestNotifications(NOTIFICATIONS_SHOWN),
  ]);
  const byDomain: Record<string, number> = Object.fromEntries(DOMAINS.map((domain) => [domain, 0]));
  let total = 0;
  for (const [domain, count] of counts) {
    total += count;
    if (domain !== null) byDomain[domain] = (byDomain[domain] ?? 0) + count;
  }
  return {
    schemaVersion: 1,
    generatedAt: new Date(options.generatedAt ?? now).toISOString(),
    inProgress: { total, byDomain },
    activity: { last7Days, last30Days, thisYear },
    upcoming: upcomingOf(calendar, now, now + UPCOMING_DAYS * DAY),
    notifications: { latest },
    mirror: mirrorState(options),
  };
}

function mirrorState({ mirrorSyncedAt, mirrorNeedsNode }: StatusOptions): MirrorState | null {
  if (mirrorNeedsNode !== undefined) return { syncedAt: null, readable: false, needsNode: mirrorNeedsNode };
  if (mirrorSyncedAt === null) return null;
  return { syncedAt: mirrorSyncedAt === undefined ? null : new Date(mirrorSyncedAt).toISOString() };
}

function upcomingOf(calendar: unknown[], from: number, to: number): Upcoming[] {
  const upcoming: Upcoming[] = [];
  for (const item of calendar) {
    const airsAt = airsAtOf(item);
    if (airsAt === undefined || airsAt < from || airsAt >= to) continue;
    upcoming.push({
      entryId: ownerOf(item).entryId,
      title: showTitleOf(item),
      season: seasonOf(item) ?? null,
      episode: episodeOf(item) ?? null,
      airsAt: new Date(airsAt).toISOString(),
    });
  }
  return upcoming.sort((a, b) => (a.airsAt < b.airsAt ? -1 : a.airsAt > b.airsAt ? 1 : 0));
}
