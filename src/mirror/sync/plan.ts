import { ENDPOINTS, type EndpointName } from '../../api/endpoints.js';
import { EXPORT_INTERVAL_MS } from '../../export/obtain.js';
import { ApiError, RateLimitError, TransportError } from '../../util/errors.js';
import type { ItemTable } from '../schema.js';

/**
 * What a sync reads, as data: where the library and history come from (a cached export, a fresh one, or the
 * paginated endpoints), which collections are read from their own endpoints, and what a 403 or 404 leaves out.
 */

/**
 * Where the library and history came from (sync_runs.source, mirror_meta's source): `changes` is a quick sync's,
 * only what changed since the last sync (sync/quick.ts).
 */
export type SyncSource = 'export' | 'export-cache' | 'pages' | 'changes';

/** What is known of an account's export before the first read of its library. */
export interface SourceFacts {
  /** When the cached export was fetched (epoch ms); none when no usable one is cached. */
  cachedAt: number | undefined;
  /** The server's moment the mirror last showed (mirror_meta snapshot_at); none for a new mirror. */
  snapshotAt: number | undefined;
  now: number;
  /** --full: the server as it is now, never a cached export. */
  full: boolean;
}

/** The first plan for the library and history; an export that cannot be had or used falls back to the pages. */
export function planSource(facts: SourceFacts): 'cached-export' | 'export' | 'pages' {
  const { cachedAt, snapshotAt } = facts;
  if (cachedAt === undefined || facts.now - cachedAt >= EXPORT_INTERVAL_MS) return 'export';
  // A cached export newer than the mirror (`lk export` just ran) is the server's state then, at no request. One the
  // mirror already holds says nothing new, and the hour allows no other export: the pages show what changed since.
  if (facts.full || (snapshotAt !== undefined && cachedAt <= snapshotAt)) return 'pages';
  return 'cached-export';
}

/** A refused export that the pages stand in for: the hour not over, the key without export:read, no way through. */
export function pagesStandInFor(error: unknown): boolean {
  return (
    error instanceof RateLimitError || (error instanceof ApiError && error.status === 403) || (error instanceof TransportError && !error.retryable)
  );
}

interface Area {
  endpoint: EndpointName;
  /** The tables it fills: left as they were when it cannot be read. */
  tables: readonly ItemTable[];
}

/**
 * Collections an export may carry besides the library and history. docs/api.md does not fix the export's fields: an
 * instance may leave any of them out, and then they are read from their endpoints in the same sync, so that the
 * first sync answers every --offline command as the server would.
 */
const EXPORTABLE = {
  lists: { endpoint: 'lists', tables: ['lists', 'list_items'] },
  reviews: { endpoint: 'reviews', tables: ['reviews'] },
  achievements: { endpoint: 'achievements', tables: ['achievements'] },
  notifications: { endpoint: 'notifications', tables: ['notifications'] },
  profile: { endpoint: 'profile', tables: ['profile'] },
} as const satisfies Record<string, Area>;

/** Read from their endpoints on every sync, whatever the source. */
const ALWAYS_READ = {
  calendar: { endpoint: 'calendar', tables: ['calendar'] },
  stats: { endpoint: 'stats', tables: ['stats'] },
} as const satisfies Record<string, Area>;

const AREAS: Record<AreaName, Area> = { ...EXPORTABLE, ...ALWAYS_READ };

export type ExportableArea = keyof typeof EXPORTABLE;
export type AreaName = ExportableArea | keyof typeof ALWAYS_READ;

/** The collections an export may carry besides the library and history: lk diff's names for them too. */
export const EXPORTABLE_AREAS = Object.keys(EXPORTABLE) as ExportableArea[];

/** The exportable collections read from their endpoints: those the export did not hold (all of them after the pages). */
export function areasFromEndpoints(exported: ReadonlySet<string>): ExportableArea[] {
  return EXPORTABLE_AREAS.filter((area) => !exported.has(area));
}

export function isExportable(area: AreaName): area is ExportableArea {
  return area in EXPORTABLE;
}

export const ALWAYS_READ_AREAS = Object.keys(ALWAYS_READ) as (keyof typeof ALWAYS_READ)[];

export function tablesOf(area: AreaName): readonly ItemTable[] {
  return AREAS[area].tables;
}

/**
 * Why an area is left as it was: the key lacks its scope (403), or the instance has no such endpoint (404) — an
 * instance that exports no notifications and has no notifications endpoint still syncs the rest. Undefined for any
 * other error: that one ends the sync.
 */
export function leftOutBecause(area: AreaName, error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.status === 403) return `the key lacks ${ENDPOINTS[AREAS[area].endpoint].scope} (${error.code ?? '403'})`;
  if (error.status === 404) return 'the instance has no such endpoint (404)';
  return undefined;
}
