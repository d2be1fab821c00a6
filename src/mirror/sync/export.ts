import type { ApiReader, Waiter } from '../../api/client.js';
import { DamagedExport, type ExportCache } from '../../export/cache.js';
import { EXPORT_INTERVAL_MS, obtainExport } from '../../export/obtain.js';
import type { IoStreams } from '../../output/terminal/io.js';
import { RateLimitError } from '../../util/errors.js';
import { formatMoment } from '../../util/units.js';
import { streamJsonMembers } from '../json-stream.js';
import { isObject } from '../../util/json-value.js';
import { text } from '../../items/values.js';
import type { ItemSink } from './fetch.js';
import { pagesStandInFor, planSource, type SyncSource } from './plan.js';

/** An export read whole: where it came from, the server's moment it shows, the collections it held (lower case). */
export interface ExportRead {
  source: Exclude<SyncSource, 'pages' | 'changes'>;
  snapshotAt: number;
  collections: ReadonlySet<string>;
}

export interface ExportReading {
  client: ApiReader;
  /** None: the cache folder cannot be trusted (or used); the export is fetched without it. */
  cache: ExportCache | undefined;
  account: string;
  /** The server's moment the mirror shows now; none for a new mirror. */
  snapshotAt: number | undefined;
  full: boolean;
  io: IoStreams;
  now: () => number;
  wait: Waiter;
  signal?: AbortSignal | undefined;
}

/** Where the export's items go: a sink that can take a read back (the writer's savepoint). */
export interface TentativeSink extends ItemSink {
  /** Runs `read` so that, when it throws, nothing it wrote stays. */
  tentatively<T>(read: () => Promise<T>): Promise<T>;
}

/**
 * No export to read: `withinHour` when none can be had before the server's hour is over (the hour's one is the
 * mirror's already, or the server refused a new one), so that the sync may read only what changed (sync/quick.ts).
 */
export interface NoExport {
  withinHour: boolean;
  /** When a new export can be had (the cached one's hour over, or the server's Retry-After), when known. */
  nextExportAt?: number | undefined;
}

/** The export could not be used: its shape is not one this client recognises (or the cached copy is damaged). */
class UnusableExport extends Error {}

/**
 * The library and history (and what else it holds) from the export — the cached one while the server's hour is not
 * over, else a new one — into the sink. Undefined when there is none to use: the caller reads the pages instead.
 */
export async function readExport(reading: ExportReading, sink: TentativeSink): Promise<ExportRead | NoExport> {
  const { cache, account, io } = reading;
  const lookup = await cache?.metadata(account);
  if (lookup?.state === 'untrusted') io.info(`lk: not using the cached export: ${lookup.reason}`);
  const cached = lookup?.state === 'ok' ? lookup.entry : undefined;
  const plan = planSource({ cachedAt: cached?.fetchedAtMs, snapshotAt: reading.snapshotAt, now: reading.now(), full: reading.full });
  if (plan === 'pages') return { withinHour: !reading.full, nextExportAt: cached ? cached.fetchedAtMs + EXPORT_INTERVAL_MS : undefined };
  if (plan === 'cached-export' && cache && cached) {
    return usable(
      reading,
      async (members) => {
        await streamJsonMembers(
          cache.stream(account, cached),
          (member) => members.add(member.key, member.value, member.element),
          (key) => members.opened(key),
        );
        return { source: 'export-cache', snapshotAt: cached.fetchedAtMs };
      },
      sink,
    );
  }
  let exported;
  try {
    exported = await obtainExport(
      { client: reading.client, cache, account, io, now: reading.now, wait: reading.wait, signal: reading.signal },
      { fresh: false, maxAgeMs: 0, maxWaitSeconds: undefined },
    );
  } catch (error) {
    if (!pagesStandInFor(error)) throw error;
    if (error instanceof RateLimitError) {
      io.info(
        `lk: a new export is possible after ${formatMoment(error.resetAt.getTime(), reading.now())}; reading the paginated endpoints meanwhile`,
      );
      return { withinHour: true, nextExportAt: error.resetAt.getTime() };
    }
    io.info(`lk: the export is not available (${(error as Error).message}); reading the paginated endpoints instead`);
    return { withinHour: false };
  }
  return usable(
    reading,
    (members) => {
      for (const [key, value] of Object.entries(exported.json)) {
        if (!Array.isArray(value)) members.add(key, value, false);
        else {
          members.opened(key);
          for (const item of value) members.add(key, item, true);
        }
      }
      return Promise.resolve({ source: exported.fromCache ? 'export-cache' : 'export', snapshotAt: exported.fetchedAt });
    },
    sink,
  );
}

/**
 * Reads an export tentatively: one of a shape this client does not know (no library or history, an item without an
 * id), or a damaged cached copy, leaves nothing behind and gives undefined; any other error is the caller's.
 */
async function usable(
  reading: ExportReading,
  read: (members: ExportMembers) => Promise<Omit<ExportRead, 'collections'>>,
  sink: TentativeSink,
): Promise<ExportRead | NoExport> {
  try {
    return await sink.tentatively(async () => {
      const members = new ExportMembers(sink);
      const result = await read(members);
      const { collections } = members;
      // An empty library is an export too: its collections are there, with nothing in them.
      if (!(collections.has('library') || collections.has('entries')) || !collections.has('history'))
        throw new UnusableExport('it has no library or no history collection');
      return { ...result, collections };
    });
  } catch (error) {
    if (!(error instanceof UnusableExport || error instanceof DamagedExport || error instanceof SyntaxError)) throw error;
    reading.io.info(`lk: not using the export (${error.message}); reading the paginated endpoints instead`);
    return { withinHour: false };
  }
}

type PutItem = (sink: ItemSink, item: unknown, key: string) => void;

const putEntry: PutItem = (sink, item, key) => {
  if (!isObject(item) || text(item.id) === null) throw new UnusableExport(`an item of ${key} carries no id`);
  sink.entry(item);
};

/** Where an item of each of the export's collections goes, by its name in lower case (the others are not read). */
const PUT_ITEM = new Map<string, PutItem>([
  ['library', putEntry],
  ['entries', putEntry],
  [
    'history',
    (sink, item) => {
      if (!isObject(item)) throw new UnusableExport('an item of history is not an object');
      sink.event(item);
    },
  ],
  [
    'lists',
    (sink, item) => {
      if (isObject(item)) sink.list(item, Array.isArray(item.items) ? item.items : []);
    },
  ],
  ['reviews', (sink, item) => sink.review(item)],
  ['achievements', (sink, item) => sink.achievement(item)],
  ['notifications', (sink, item) => sink.notification(item)],
  ['calendar', (sink, item) => sink.calendarItem(item)],
]);

/** The export's top-level members, one item at a time, into the sink; the collections met so far (lower case). */
class ExportMembers {
  readonly collections = new Set<string>();

  constructor(private readonly sink: ItemSink) {}

  /** A top-level array begins (an empty one too). */
  opened(key: string): void {
    this.collections.add(key.toLowerCase());
  }

  /** A whole top-level value (element false), or one element of a top-level array. */
  add(key: string, value: unknown, element: boolean): void {
    const name = key.toLowerCase();
    if (!element) {
      if (name === 'profile' && isObject(value)) {
        this.collections.add(name);
        this.sink.profile(value);
      }
      if ((name === 'library' || name === 'entries' || name === 'history') && !Array.isArray(value))
        throw new UnusableExport(`its ${key} is not a list`);
      return;
    }
    PUT_ITEM.get(name)?.(this.sink, value, key);
  }
}
