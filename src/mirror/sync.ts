import { accountName } from '../api/account.js';
import type { ApiClient, Query, RequestOptions, Waiter } from '../api/client.js';
import { paginate } from '../api/paginate.js';
import { DamagedExport, type ExportCache } from '../export/cache.js';
import { EXPORT_INTERVAL_MS, obtainExport } from '../export/obtain.js';
import { acquireLock } from '../util/lock.js';
import { ApiError, RateLimitError, TransportError } from '../util/errors.js';
import type { IoStreams } from '../output/terminal/io.js';
import { streamJsonMembers } from './json-stream.js';
import { openForWriting, type Database } from './open.js';
import {
  achievementRow,
  calendarRow,
  entryRow,
  eventRow,
  isObject,
  listItemRow,
  listRow,
  notificationRow,
  profileRow,
  reviewRow,
  syntheticId,
  text,
  workOf,
  workRow,
  type Row,
} from './rows.js';
import { eventDomainReader, refreshEventDomains } from './event-columns.js';
import { migrate, refuseNewer } from './migrations.js';
import { FTS_OF } from './schema.js';
import { TableSync, type Counts } from './writer.js';

export interface SyncOptions {
  dbPath: string;
  /** Ignore a cached export and re-read every entry's history: the server's state now, every row compared. */
  full: boolean;
  client: ApiClient;
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
  /** A short status ("12,345 entries"), for a spinner on a terminal. */
  onProgress?: (text: string) => void;
}

export type SyncSource = 'export' | 'export-cache' | 'pages';

export interface SyncResult {
  source: SyncSource;
  requests: number;
  counts: Counts;
  rows: Record<string, number>;
  startedAt: number;
  finishedAt: number;
}

const TABLE_COLUMNS: Record<string, string[]> = {
  works: ['id', 'source', 'source_id', 'title', 'original_title', 'type', 'domain', 'year', 'url'],
  entries: [
    'id',
    'work_id',
    'title',
    'domain',
    'status',
    'phase',
    'rating',
    'notes',
    'added_at',
    'started_at',
    'finished_at',
    'updated_at',
    'title_key',
    'position',
  ],
  history: ['id', 'entry_id', 'work_id', 'kind', 'date', 'cycle', 'minutes', 'pages', 'domain', 'position'],
  lists: ['id', 'name', 'description', 'item_count', 'visibility', 'owner', 'created_at', 'updated_at', 'position'],
  list_items: ['id', 'list_id', 'item_index', 'type', 'work_id', 'season', 'episode', 'title', 'note', 'added_at'],
  reviews: ['id', 'entry_id', 'work_id', 'rating', 'title', 'body', 'created_at', 'position'],
  achievements: ['id', 'name', 'description', 'domain', 'unlocked_at', 'position'],
  notifications: ['id', 'kind', 'title', 'message', 'read', 'created_at', 'position'],
  calendar: ['id', 'entry_id', 'work_id', 'season', 'episode', 'title', 'airs_at', 'episodes_behind', 'position'],
  profile: ['id', 'username', 'display_name'],
  stats: ['id'],
};

/** Undated events of the paginated source sort after every dated one. */
const UNDATED_POSITION = 1_000_000_000;
const HISTORY_CONCURRENCY = 4;

/**
 * Collections an export may carry besides the library and history. SPEC.md does not fix the export's fields: an
 * instance may leave any of them out, and then they are read from their endpoints in the same sync, so that the
 * first sync answers every --offline command as the server would.
 */
const EXPORT_AREAS = ['lists', 'reviews', 'achievements', 'notifications', 'profile'] as const;
type ExportArea = (typeof EXPORT_AREAS)[number];

/** The export could not be used: its shape is not one this client recognises (or the cached copy is damaged). */
class UnusableExport extends Error {}

/** One sync: everything is written in one transaction, so an interrupted or failed run leaves the previous mirror. */
export async function syncMirror(options: SyncOptions): Promise<SyncResult> {
  const startedAt = options.now();
  const db = openForWriting(options.dbPath);
  const lock = await acquireLock(`${options.dbPath}.lock`, {
    signal: options.signal,
    staleMs: 2 * 60 * 1000,
    onWait: (holder) => options.io.info(`lk: another lk sync${holder ? ` (pid ${holder.pid})` : ''} is updating ${options.dbPath}; waiting for it…`),
  });
  let requests = 0;
  const client = {
    get: (path: string, query?: Query, requestOptions?: RequestOptions) => {
      requests += 1;
      return options.client.get(path, query, requestOptions);
    },
    accounts: options.client.accounts,
  } as unknown as ApiClient;
  try {
    db.exec('BEGIN IMMEDIATE');
    try {
      // Checked again under the lock: another lk may have synced the file since it was opened.
      refuseNewer(db, options.dbPath);
      migrate(db);
      const run = new SyncRun(db, client, options);
      const source = await run.read();
      const finishedAt = options.now();
      const counts = run.finish();
      const meta = db.prepare('INSERT INTO mirror_meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
      meta.run('snapshot_at', new Date(run.snapshotAt ?? startedAt).toISOString());
      meta.run('synced_at', new Date(finishedAt).toISOString());
      meta.run('source', source);
      meta.run('base_url', options.baseUrl);
      meta.run('profile', options.profile);
      if (run.account) meta.run('account', run.account);
      db.prepare(
        'INSERT INTO sync_runs(started_at, finished_at, source, requests, rows_added, rows_changed, rows_removed, base_url, account, lk_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ).run(
        new Date(startedAt).toISOString(),
        new Date(finishedAt).toISOString(),
        source,
        requests,
        counts.added,
        counts.changed,
        counts.removed,
        options.baseUrl,
        run.account ?? null,
        options.version,
      );
      db.exec('COMMIT');
      const rows: Record<string, number> = {};
      for (const table of ['entries', 'history', 'lists', 'reviews']) rows[table] = Number(db.prepare(`SELECT count(*) AS n FROM ${table}`).get()!.n);
      return { source, requests, counts, rows, startedAt, finishedAt };
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  } finally {
    lock.release();
    db.close();
  }
}

class SyncRun {
  tables!: Record<string, TableSync>;
  account: string | undefined;
  snapshotAt: number | undefined;
  /** Entries new or changed this run: their own history is re-read for undated events (paginated source). */
  private readonly changedEntries: string[] = [];
  private positions: Record<string, number> = {};
  private lastProgress = 0;
  /** The export's collections (member names in lower case) as read so far: a library and a history make it usable. */
  private readonly exported = new Set<string>();
  private readonly eventDomain: ReturnType<typeof eventDomainReader>;

  constructor(
    private readonly db: Database,
    private readonly client: ApiClient,
    private readonly options: SyncOptions,
  ) {
    this.eventDomain = eventDomainReader(db);
    this.reset();
  }

  private reset(): void {
    this.tables = Object.fromEntries(
      Object.entries(TABLE_COLUMNS).map(([table, columns]) => [
        table,
        new TableSync(this.db, table, columns, table === 'history' ? sameEvent : undefined),
      ]),
    );
    this.changedEntries.length = 0;
    this.positions = {};
    this.exported.clear();
  }

  private next(table: string): number {
    const position = this.positions[table] ?? 0;
    this.positions[table] = position + 1;
    return position;
  }

  private progress(): void {
    const now = Date.now();
    if (!this.options.onProgress || now - this.lastProgress < 100) return;
    this.lastProgress = now;
    const count = (table: string) => (this.positions[table] ?? 0).toLocaleString('en-US');
    this.options.onProgress(`${count('entries')} entries, ${count('history')} events`);
  }

  /** Reads the account from the export when it can, else from the paginated endpoints; then calendar and stats. */
  async read(): Promise<SyncSource> {
    this.account = await this.accountName();
    let source = await this.readExport();
    if (source === undefined) {
      await this.readPages();
      source = 'pages';
      this.snapshotAt = this.options.now();
    } else {
      for (const area of EXPORT_AREAS) if (!this.exported.has(area)) await this.readArea(area);
    }
    await this.area('calendar', 'calendar:read', async () => {
      for await (const page of paginate(this.client, '/v1/calendar', {}, { followIfPaged: true }, { signal: this.options.signal })) {
        for (const item of page.items) this.calendarItem(item);
      }
    });
    await this.area('stats', 'stats:read', async () => {
      const summary = (await this.client.get('/v1/stats/summary', {}, { signal: this.options.signal })).json;
      this.put('stats', { id: 'all' }, summary);
    });
    return source;
  }

  /** Deletes what the server no longer shows, rebuilds the search indexes that changed; the run's counts. */
  finish(): Counts {
    const counts: Counts = { added: 0, changed: 0, removed: 0 };
    for (const table of Object.values(this.tables)) {
      table.finish();
      counts.added += table.counts.added;
      counts.changed += table.counts.changed;
      counts.removed += table.counts.removed;
    }
    for (const [table, fts] of Object.entries(FTS_OF)) {
      if (this.tables[table]!.touched || this.options.full) this.db.exec(`INSERT INTO ${fts}(${fts}) VALUES ('rebuild')`);
    }
    // An event's domain is its entry's or work's: set once both are in place, whichever of them came or changed.
    if (['entries', 'works', 'history'].some((table) => this.tables[table]!.touched) || this.options.full) refreshEventDomains(this.db);
    return counts;
  }

  private async accountName(): Promise<string | undefined> {
    const remembered = this.client.accounts?.lookup(this.options.key);
    if (remembered) return remembered;
    try {
      return accountName((await this.client.get('/v1/me', {}, { signal: this.options.signal })).json);
    } catch (error) {
      if (error instanceof ApiError && error.status !== 401) return undefined;
      throw error;
    }
  }

  // --- the export ---------------------------------------------------------------------------------------------

  private async readExport(): Promise<SyncSource | undefined> {
    const { options } = this;
    if (!this.account) return undefined;
    const { cache } = options;
    const lookup = await cache?.metadata(this.account);
    if (lookup?.state === 'untrusted') options.io.info(`lk: not using the cached export: ${lookup.reason}`);
    const meta = lookup?.state === 'ok' ? lookup.entry : undefined;
    const now = options.now();
    const snapshot = this.db.prepare("SELECT value FROM mirror_meta WHERE key = 'snapshot_at'").get()?.value;
    const snapshotAt = typeof snapshot === 'string' ? Date.parse(snapshot) : undefined;
    const hourOver = !meta || now - meta.fetchedAtMs >= EXPORT_INTERVAL_MS;
    if (cache && meta && !hourOver) {
      // A cached export newer than the mirror (`lk export` just ran): the server's state then, at no request.
      if (options.full || (snapshotAt !== undefined && meta.fetchedAtMs <= snapshotAt)) return undefined;
      return this.attempt(async () => {
        await streamJsonMembers(
          cache.stream(this.account!, meta),
          (member) => this.exportMember(member.key, member.value, member.element),
          (key) => this.exported.add(key.toLowerCase()),
        );
        this.snapshotAt = meta.fetchedAtMs;
        return 'export-cache';
      });
    }
    let exported;
    try {
      exported = await obtainExport(
        { client: this.client, cache, account: this.account, io: options.io, now: options.now, wait: options.wait, signal: options.signal },
        { fresh: false, maxAgeMs: 0, maxWaitSeconds: undefined },
      );
    } catch (error) {
      if (
        error instanceof RateLimitError ||
        (error instanceof ApiError && error.status === 403) ||
        (error instanceof TransportError && !error.retryable)
      ) {
        options.io.info(`lk: the export is not available (${error.message}); reading the paginated endpoints instead`);
        return undefined;
      }
      throw error;
    }
    return this.attempt(() => {
      for (const [key, value] of Object.entries(exported.json)) {
        if (Array.isArray(value)) this.exported.add(key.toLowerCase());
        if (Array.isArray(value)) for (const item of value) this.exportMember(key, item, true);
        else this.exportMember(key, value, false);
      }
      this.snapshotAt = exported.fetchedAt;
      return Promise.resolve(exported.fromCache ? 'export-cache' : 'export');
    });
  }

  /** Reads an export inside a savepoint: an export of a shape this client does not know leaves nothing behind. */
  private async attempt(read: () => Promise<SyncSource>): Promise<SyncSource | undefined> {
    this.db.exec('SAVEPOINT export');
    try {
      const source = await read();
      // An empty library is an export too: its collections are there, with nothing in them.
      if (!(this.exported.has('library') || this.exported.has('entries')) || !this.exported.has('history'))
        throw new UnusableExport('it has no library or no history collection');
      this.db.exec('RELEASE export');
      return source;
    } catch (error) {
      this.db.exec('ROLLBACK TO export; RELEASE export');
      this.reset();
      if (!(error instanceof UnusableExport || error instanceof DamagedExport || error instanceof SyntaxError)) throw error;
      this.options.io.info(`lk: not using the export (${error.message}); reading the paginated endpoints instead`);
      return undefined;
    }
  }

  private exportMember(key: string, value: unknown, element: boolean): void {
    const name = key.toLowerCase();
    if (!element) {
      if (name === 'profile' && isObject(value)) {
        this.exported.add(name);
        this.profileItem(value);
      }
      if ((name === 'library' || name === 'entries' || name === 'history') && !Array.isArray(value))
        throw new UnusableExport(`its ${key} is not a list`);
      return;
    }
    switch (name) {
      case 'library':
      case 'entries':
        if (!isObject(value) || text(value.id) === null) throw new UnusableExport(`an item of ${key} carries no id`);
        this.entry(value);
        return;
      case 'history':
        if (!isObject(value)) throw new UnusableExport('an item of history is not an object');
        this.event(value, this.next('history'));
        return;
      case 'lists':
        if (isObject(value)) this.list(value, Array.isArray(value.items) ? value.items : []);
        return;
      case 'reviews':
        this.review(value);
        return;
      case 'achievements':
        this.achievement(value);
        return;
      case 'notifications':
        this.notification(value);
        return;
      case 'calendar':
        this.calendarItem(value);
        return;
      default:
        return;
    }
  }

  // --- the paginated endpoints -------------------------------------------------------------------------------

  private async readPages(): Promise<void> {
    const signal = this.options.signal;
    const all = (path: string) => paginate(this.client, path, {}, { all: true }, { signal });
    // The library, then every dated event; undated ones appear only in each entry's own history.
    await this.required(async () => {
      for await (const page of all('/v1/library')) for (const item of page.items) if (isObject(item) && text(item.id) !== null) this.entry(item);
    });
    await this.required(async () => {
      for await (const page of all('/v1/history')) for (const item of page.items) if (isObject(item)) this.event(item, this.next('history'));
    });
    await this.undatedEvents();
    for (const area of EXPORT_AREAS) await this.readArea(area);
  }

  /** One collection from its endpoints (left as it was, with a warning, when the key lacks its scope). */
  private async readArea(area: ExportArea): Promise<void> {
    const signal = this.options.signal;
    const all = (path: string) => paginate(this.client, path, {}, { all: true }, { signal });
    switch (area) {
      case 'lists':
        return this.area(
          'lists',
          'lists:read',
          async () => {
            for await (const page of all('/v1/lists')) {
              for (const list of page.items) {
                if (!isObject(list) || text(list.id) === null) continue;
                const detail = (await this.client.get(`/v1/lists/${encodeURIComponent(text(list.id)!)}`, {}, { signal })).json;
                const items = isObject(detail) && Array.isArray(detail.items) ? detail.items : [];
                this.list(list, items);
              }
            }
          },
          ['list_items'],
        );
      case 'reviews':
        return this.area('reviews', 'reviews:read', async () => {
          for await (const page of all('/v1/reviews')) for (const item of page.items) this.review(item);
        });
      case 'achievements':
        return this.area('achievements', 'profile:read', async () => {
          for await (const page of all('/v1/profile/achievements')) for (const item of page.items) this.achievement(item);
        });
      case 'notifications':
        return this.area('notifications', 'notifications:read', async () => {
          for await (const page of all('/v1/notifications')) for (const item of page.items) this.notification(item);
        });
      case 'profile':
        return this.area('profile', 'profile:read', async () => {
          const profile = (await this.client.get('/v1/profile', {}, { signal })).json;
          if (isObject(profile)) this.profileItem(profile);
        });
    }
  }

  /** GET /v1/library/{id}/history of each entry new or changed since the last sync (of every entry with --full). */
  private async undatedEvents(): Promise<void> {
    const history = this.tables.history!;
    const ids = this.options.full
      ? this.db
          .prepare('SELECT id FROM temp.seen_entries')
          .all()
          .map((row) => row.id as string)
      : [...this.changedEntries];
    this.db.exec('CREATE TEMP TABLE IF NOT EXISTS reread_entries (id TEXT PRIMARY KEY); DELETE FROM temp.reread_entries;');
    const mark = this.db.prepare('INSERT OR IGNORE INTO temp.reread_entries(id) VALUES (?)');
    for (const id of ids) mark.run(id);
    // Undated events of entries that did not change stay as they are: imports do not change on their own.
    history.keep('date IS NULL AND entry_id IN (SELECT id FROM temp.seen_entries) AND entry_id NOT IN (SELECT id FROM temp.reread_entries)');
    let undated = 0;
    let next = 0;
    const worker = async () => {
      while (next < ids.length) {
        const id = ids[next++]!;
        const events: Record<string, unknown>[] = [];
        try {
          for await (const page of paginate(
            this.client,
            `/v1/library/${encodeURIComponent(id)}/history`,
            {},
            { all: true },
            { signal: this.options.signal },
          )) {
            for (const event of page.items) if (isObject(event) && event.date === null) events.push(event);
          }
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) continue; // removed while we read
          throw error;
        }
        for (const event of events) this.event({ entryId: id, ...event }, UNDATED_POSITION + undated++);
      }
    };
    await Promise.all(Array.from({ length: Math.min(HISTORY_CONCURRENCY, ids.length) }, worker));
  }

  private async required(read: () => Promise<void>): Promise<void> {
    await read();
  }

  /**
   * An area the key may lack the scope for, or the instance may not offer (404): then it is left as it was, with a
   * warning. An instance that exports no notifications and has no notifications endpoint still syncs the rest.
   */
  private async area(table: string, scope: string, read: () => Promise<void>, alsoTables: string[] = []): Promise<void> {
    try {
      await read();
    } catch (error) {
      const reason =
        error instanceof ApiError && error.status === 403
          ? `the key lacks ${scope} (${error.code ?? '403'})`
          : error instanceof ApiError && error.status === 404
            ? 'the instance has no such endpoint (404)'
            : undefined;
      if (reason !== undefined) {
        this.options.io.warn(`lk: warning: ${table} not synced: ${reason}; the mirror keeps what it had`);
        for (const name of [table, ...alsoTables]) this.tables[name]!.skipped = true;
        return;
      }
      throw error;
    }
  }

  // --- items → rows ------------------------------------------------------------------------------------------

  private put(table: string, row: Row, item: unknown): ReturnType<TableSync['put']> {
    return this.tables[table]!.put(row, JSON.stringify(item));
  }

  private work(item: unknown): void {
    const work = workOf(item);
    if (work) this.put('works', workRow(work), work);
  }

  private entry(entry: Record<string, unknown>): void {
    this.work(entry);
    const outcome = this.put('entries', entryRow(entry, this.next('entries')), entry);
    if (outcome === 'added' || outcome === 'changed') this.changedEntries.push(text(entry.id)!);
    this.progress();
  }

  private event(event: Record<string, unknown>, position: number): void {
    this.work(event);
    const id = text(event.id) ?? syntheticId('event', event, String(position));
    const row = eventRow(event, position, id);
    this.put('history', { ...row, domain: this.eventDomain(row.entry_id ?? null, row.work_id ?? null) }, event);
    this.progress();
  }

  private list(list: Record<string, unknown>, items: unknown[]): void {
    const id = text(list.id);
    if (id === null) return;
    const { items: _items, ...bare } = list;
    void _items;
    this.put('lists', listRow(list, this.next('lists')), bare);
    items.forEach((item, index) => {
      if (!isObject(item)) return;
      this.work(item);
      this.put('list_items', listItemRow(id, index, item), item);
    });
  }

  private review(review: unknown): void {
    if (!isObject(review) || text(review.id) === null) return;
    this.work(review);
    this.put('reviews', reviewRow(review, this.next('reviews')), review);
  }

  private achievement(achievement: unknown): void {
    if (!isObject(achievement)) return;
    const position = this.next('achievements');
    this.put('achievements', achievementRow(achievement, position, text(achievement.id) ?? syntheticId('achievement', achievement, '')), achievement);
  }

  private notification(notification: unknown): void {
    if (!isObject(notification)) return;
    const position = this.next('notifications');
    this.put(
      'notifications',
      notificationRow(notification, position, text(notification.id) ?? syntheticId('notification', notification, '')),
      notification,
    );
  }

  private calendarItem(item: unknown): void {
    if (!isObject(item)) return;
    this.work(item);
    const position = this.next('calendar');
    this.put('calendar', calendarRow(item, position, text(item.id) ?? syntheticId('calendar', item, '')), item);
  }

  private profileItem(profile: Record<string, unknown>): void {
    this.put('profile', profileRow(profile), profile);
  }
}

/** The export's events carry workId where the pages carry the whole work: the same event either way. */
function sameEvent(stored: string, incoming: string): boolean {
  const bare = (text: string) => {
    const { work, workId, ...rest } = JSON.parse(text) as Record<string, unknown>;
    return { rest: JSON.stringify(rest), workId: workId ?? (work as { id?: unknown } | undefined)?.id };
  };
  const a = bare(stored);
  const b = bare(incoming);
  return a.rest === b.rest && a.workId === b.workId && a.workId !== undefined;
}
