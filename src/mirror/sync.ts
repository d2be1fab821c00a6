import { existsSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ApiReader, Waiter } from '../api/client.js';
import type { ExportCache } from '../export/cache.js';
import type { IoStreams } from '../output/terminal/io.js';
import { acquireLock, type LockHolder } from '../util/lock.js';
import { formatDuration, formatMoment } from '../util/units.js';
import { ExitCode, LkError } from '../util/errors.js';
import { isDiskFull } from '../util/sqlite-errors.js';
import { migrate, refuseNewer } from './migrations.js';
import { DiskFull, openForWriting, refuseUnwritable, type Database } from './open.js';
import { heldMirror, mirrorAccount, refuseOtherAccount } from './sync/account.js';
import { readExport } from './sync/export.js';
import { CountedClient, EndpointReads } from './sync/fetch.js';
import { ALWAYS_READ_AREAS, areasFromEndpoints, isExportable, leftOutBecause, tablesOf, type AreaName, type SyncSource } from './sync/plan.js';
import { libraryReadWholeLine, planQuick, waitsForExportLine } from './sync/quick.js';
import { heldRows, newestEventAt, readChanges, type ChangesRead } from './sync/changes.js';
import { lastSnapshot, recordRun, rowCounts } from './sync/record.js';
import { MirrorWriter } from './sync/write.js';
import type { Counts } from './writer.js';

export type { SyncSource } from './sync/plan.js';

export interface SyncOptions {
  dbPath: string;
  /** Ignore a cached export and re-read every entry's history: the server's state now, every row compared. */
  full: boolean;
  client: ApiReader;
  io: IoStreams;
  /** None: the cache folder cannot be trusted (or used); the export is fetched without it. */
  cache: ExportCache | undefined;
  baseUrl: string;
  key: string;
  profile: string;
  now: () => number;
  wait: Waiter;
  signal?: AbortSignal | undefined;
  version: string;
  /** --replace: a mirror of another account than the key's is replaced (else refused: sync/account.ts). */
  replace?: boolean | undefined;
  /** A short status ("12,345 entries"), for a spinner on a terminal. */
  onProgress?: (text: string) => void;
}

export interface SyncResult {
  source: SyncSource;
  requests: number;
  counts: Counts;
  rows: Record<string, number>;
  startedAt: number;
  finishedAt: number;
}

/**
 * One sync: the library and history from the export when one can be had and used, else from the paginated
 * endpoints (sync/plan.ts decides); the collections the export lacked, the calendar and the stats from their
 * endpoints (sync/fetch.ts reads); every item into its table (sync/write.ts). All of it in one transaction, so that an
 * interrupted or failed run leaves the previous mirror.
 */
export async function syncMirror(options: SyncOptions): Promise<SyncResult> {
  // What is at the path is refused first (a newer mirror, a read-only one, not a mirror), before any request; then
  // the mirror's lock, before the file is opened: two syncs never open, create or migrate it at once (issue 57).
  refuseUnwritable(options.dbPath);
  let lock;
  try {
    lock = await mirrorLock(options);
  } catch (error) {
    // No room for the lock file: the disk is full, said as for the mirror itself.
    if (isDiskFull(error, dirname(options.dbPath))) throw diskFull(options.dbPath, existsSync(options.dbPath));
    throw error;
  }
  try {
    const existed = existsSync(options.dbPath);
    try {
      return await syncInto(options);
    } catch (error) {
      // A first sync that failed leaves no file behind: readers would take it for a sync still writing it.
      if (!existed) for (const suffix of ['', '-wal', '-shm']) rmSync(`${options.dbPath}${suffix}`, { force: true });
      if (error instanceof DiskFull || isDiskFull(error, dirname(options.dbPath))) throw diskFull(options.dbPath, existed);
      throw error;
    }
  } finally {
    lock.release();
  }
}

/** How long a sync waits for another one on the same mirror (a sync takes seconds; one waiting out a 429, longer). */
const SYNC_WAIT_MS = 10 * 60 * 1000;

/**
 * The mirror's lock (`<mirror>.lock`): a second lk sync — cron's beside lk serve --sync-every — waits its turn, said
 * once on stderr, at most SYNC_WAIT_MS; then it gives up with one line (exit 1), the mirror as the other one leaves it.
 */
function mirrorLock(options: SyncOptions) {
  const holding = (holder: LockHolder | undefined) => `another lk sync${holder ? ` (pid ${holder.pid})` : ''} is updating ${options.dbPath}`;
  return acquireLock(`${options.dbPath}.lock`, {
    signal: options.signal,
    staleMs: 2 * 60 * 1000,
    waitMs: SYNC_WAIT_MS,
    onWait: (holder) => options.io.info(`lk: ${holding(holder)}; waiting for it (at most ${formatDuration(SYNC_WAIT_MS / 1000)})…`),
    gaveUp: (holder) =>
      new LkError(
        `${holding(holder)} and has not finished in ${formatDuration(SYNC_WAIT_MS / 1000)}: this sync gave up, nothing written`,
        ExitCode.failure,
        'The next run picks up what this one would have: try again later.',
      ),
  });
}

/** One line naming the full disk by the mirror's folder, and what was kept. */
function diskFull(path: string, existed: boolean): LkError {
  const folder = dirname(path);
  return new LkError(
    `the disk is full: cannot write the mirror in ${folder}; ${existed ? `${path} was left as it was` : 'no mirror was made'}`,
    1,
    `Free some space there (df -h ${folder}), or sync to another disk with --db FILE.`,
  );
}

async function syncInto(options: SyncOptions): Promise<SyncResult> {
  const startedAt = options.now();
  const client = new CountedClient(options.client);
  // What is at the path is refused first (a newer mirror, a read-only one, not a mirror), before any request.
  const db = openForWriting(options.dbPath);
  let account: string | undefined;
  try {
    // Whose key this is, before anything is written: a mirror of another account is not replaced unasked.
    account = await new EndpointReads(client, options.signal).accountName(options.key);
    refuseOtherAccount(options.dbPath, mirrorAccount(db), account, Boolean(options.replace));
  } catch (error) {
    db.close(); // refused: not held open
    throw error;
  }
  try {
    db.exec('BEGIN IMMEDIATE');
    try {
      refuseNewer(db, options.dbPath);
      migrate(db);
      const writer = new MirrorWriter(db, options);
      const { source, snapshotAt, leftOut } = await read(db, client, writer, account, options);
      const finishedAt = options.now();
      const counts = writer.finish();
      const { requests } = client;
      const { baseUrl, profile, version } = options;
      recordRun(db, { source, startedAt, finishedAt, snapshotAt, requests, counts, account, baseUrl, profile, version, leftOut });
      db.exec('COMMIT');
      return { source, requests, counts, rows: rowCounts(db), startedAt, finishedAt };
    } catch (error) {
      try {
        db.exec('ROLLBACK');
      } catch {
        // SQLite ended the transaction itself (a full disk does): nothing is left to roll back.
      }
      throw error;
    }
  } finally {
    db.close();
  }
}

/**
 * Reads the account into the writer: the library and history (the export, else only what changed since the last
 * sync when the hour allows no export — sync/quick.ts — else every page), what else the export lacked, then calendar
 * and stats.
 */
async function read(
  db: Database,
  client: CountedClient,
  writer: MirrorWriter,
  account: string | undefined,
  options: SyncOptions,
): Promise<{ source: SyncSource; snapshotAt: number; leftOut: AreaName[] }> {
  const endpoints = new EndpointReads(client, options.signal);
  const snapshotBefore = lastSnapshot(db);
  // An export is an account's: without the account's name, the pages.
  const outcome =
    account === undefined ? { withinHour: false } : await readExport({ ...options, client, account, snapshotAt: snapshotBefore }, writer);
  const exported = 'source' in outcome ? outcome : undefined;
  const withinHour = 'withinHour' in outcome && outcome.withinHour;
  const quick = exported
    ? undefined
    : planQuick({
        full: options.full,
        withinHour,
        snapshotAt: snapshotBefore,
        newestEventAt: newestEventAt(db),
        sameAccount: account !== undefined && mirrorAccount(db) === account,
        held: heldRows(db),
      });
  const leftOut: AreaName[] = [];
  const area = async (name: AreaName) => {
    const reading = isExportable(name) ? () => endpoints.exportable(name, writer) : () => endpoints[name](writer);
    if (!(await readArea(name, reading, writer, options.io))) leftOut.push(name);
  };
  let areas: AreaName[];
  let changes: ChangesRead | undefined;
  if (quick) {
    changes = await readChanges(quick, endpoints, writer);
    writer.skip(quick.waiting.flatMap((name) => tablesOf(name)));
    areas = quick.areas;
    if (changes.readWhole) options.io.info(libraryReadWholeLine(changes.readWhole.reason, changes.readWhole.removed));
  } else {
    if (!exported) {
      await endpoints.libraryAndHistory(writer);
      await endpoints.undatedEvents(writer.entriesToReread(), writer);
    }
    areas = [...areasFromEndpoints(exported?.collections ?? new Set()), ...ALWAYS_READ_AREAS];
  }
  let snapshotAt = exported?.snapshotAt;
  for (const name of areas) {
    // The pages show the server as it was when they were read: before the calendar and stats, as ever.
    if (snapshotAt === undefined && !isExportable(name)) snapshotAt = options.now();
    await area(name);
  }
  if (quick && changes) {
    const nextExportAt = 'nextExportAt' in outcome ? outcome.nextExportAt : undefined;
    const notice = waitsForExportLine({
      waiting: quick.waiting,
      eventsWithoutId: changes.eventsWithoutId,
      undatedChanges: writer.changed('stats') || writer.changed('profile'),
      nextExport: nextExportAt === undefined ? undefined : formatMoment(nextExportAt, options.now()),
    });
    if (notice) options.io.info(notice);
  }
  return { source: exported?.source ?? (quick ? 'changes' : 'pages'), snapshotAt: snapshotAt ?? options.now(), leftOut };
}

/**
 * One area read (true), or left as it was with a warning when a 403 or 404 says it cannot be (plan.ts
 * leftOutBecause): false, and the run records it (record.ts), so that lk diff does not take its rows for the server's.
 */
async function readArea(area: AreaName, read: () => Promise<void>, writer: MirrorWriter, io: IoStreams): Promise<boolean> {
  try {
    await read();
    return true;
  } catch (error) {
    const reason = leftOutBecause(area, error);
    if (reason === undefined) throw error;
    io.warn(`lk: warning: ${area} not synced: ${reason}; the mirror keeps what it had`);
    writer.skip(tablesOf(area));
    return false;
  }
}

/**
 * lk serve --sync-every at start, with a mirror there: refused (exit 1) when it holds another account than the key's;
 * else what its last sync cost and when it ended, for the pace of the turns (serve/sync-loop.ts).
 */
export async function mirrorToKeepSynced(
  dbPath: string,
  client: ApiReader,
  key: string,
  replace: boolean,
): Promise<{ lastRequests: number | undefined; lastFinishedAt: number | undefined }> {
  const held = heldMirror(dbPath);
  if (held.account !== undefined && !replace)
    refuseOtherAccount(dbPath, held.account, await new EndpointReads(client, undefined).accountName(key), replace);
  return { lastRequests: held.lastRequests, lastFinishedAt: held.lastFinishedAt };
}
