import type { Database } from '../database.js';
import { refreshLastActivity } from '../entry-activity.js';
import { eventDomainReader, refreshEventDomains } from '../event-columns.js';
import {
  achievementRow,
  calendarRow,
  entryRow,
  eventRow,
  listItemRow,
  listRow,
  notificationRow,
  profileRow,
  reviewRow,
  syntheticId,
  workRow,
  type Row,
} from '../rows.js';
import { columnsOf, ITEM_TABLES, type ItemTable, type ItemTableSpec } from '../schema.js';
import { TableSync, type Counts } from '../writer.js';
import type { ItemSink } from './fetch.js';
import { isObject, sameValue } from '../../util/json-value.js';
import { text } from '../../items/values.js';
import { workOf } from '../../items/work.js';

export interface WriterOptions {
  /** --full: every search index and event domain rebuilt, whatever changed. */
  full: boolean;
  now: () => number;
  /** A short status ("12,345 entries, 67,890 events"), at most every PROGRESS_MS. */
  onProgress?: ((text: string) => void) | undefined;
}

/** What putting an item did (TableSync.put). */
export type Outcome = ReturnType<TableSync['put']>;

/** Undated events of the paginated source sort after every dated one. */
const UNDATED_POSITION = 1_000_000_000;
const PROGRESS_MS = 100;

/**
 * The items of one sync into the mirror's tables (rows.ts makes each row; TableSync compares and replaces it), each
 * collection numbered in the server's order; at the end, what the server no longer shows goes.
 */
export class MirrorWriter implements ItemSink {
  private tables = new Map<ItemTable, TableSync>();
  /** Entries new or changed this run: their own history is re-read for undated events (paginated source). */
  private readonly changedEntries: string[] = [];
  private positions: Partial<Record<ItemTable, number>> = {};
  private undated = 0;
  private lastProgress = 0;
  private readonly eventDomain: ReturnType<typeof eventDomainReader>;
  /** Tables a quick sync reads in part (merge): nothing of them deleted, a known row keeps its place. */
  private readonly merged = new Set<ItemTable>();
  /** The places given ahead (placeOnTop) in merged tables, by table and id. */
  private readonly placed = new Map<string, number>();

  constructor(
    private readonly db: Database,
    private readonly options: WriterOptions,
  ) {
    this.eventDomain = eventDomainReader(db);
    this.reset();
  }

  /** Runs `write` in a savepoint: when it throws, nothing it wrote stays, and the writer is as it was before. */
  async tentatively<T>(write: () => Promise<T>): Promise<T> {
    this.db.exec('SAVEPOINT tentative');
    try {
      const result = await write();
      this.db.exec('RELEASE tentative');
      return result;
    } catch (error) {
      this.db.exec('ROLLBACK TO tentative; RELEASE tentative');
      this.reset();
      throw error;
    }
  }

  /** Tables not read this run (the key lacks the scope, the instance has no such endpoint): left as they were. */
  skip(tables: readonly ItemTable[]): void {
    for (const table of tables) this.table(table).skipped = true;
  }

  /**
   * A quick sync's tables, read in part (sync/changes.ts): nothing of them is deleted at the end, a row read again
   * keeps its place, a new one goes above every row held (placeOnTop) — the next sync that reads them whole sets the
   * server's order again.
   */
  merge(tables: readonly ItemTable[]): void {
    for (const table of tables) {
      this.table(table).skipped = true;
      this.merged.add(table);
    }
  }

  /**
   * A quick sync's entries read whole after all (sync/changes.ts): `read` puts every entry the server lists, and
   * those it does not list go at the end of the run — with their events when `withEvents` (an entry removed on the
   * server takes its history with it). The number of entries that goes.
   */
  async entriesReadWhole(read: () => Promise<void>, withEvents: boolean): Promise<number> {
    const entries = this.table('entries');
    this.merged.delete('entries');
    entries.skipped = false;
    this.positions.entries = 0;
    await read();
    const removed = Number(this.db.prepare('SELECT count(*) AS n FROM entries WHERE id NOT IN (SELECT id FROM temp.seen_entries)').get()!.n);
    if (withEvents) {
      const history = this.table('history');
      history.skipped = false;
      history.keep('entry_id IS NULL OR entry_id IN (SELECT id FROM temp.seen_entries)');
    }
    return removed;
  }

  /** Whether this run added, changed or removed any row of the table (so far). */
  changed(table: ItemTable): boolean {
    return this.table(table).touched;
  }

  /** Whether the mirror holds a row of this id (before this run or put by it). */
  holds(table: ItemTable, id: string): boolean {
    return this.db.prepare(`SELECT 1 FROM ${table} WHERE id = ?`).get(id) !== undefined;
  }

  /** The rows a table holds now. */
  rows(table: ItemTable): number {
    return Number(this.db.prepare(`SELECT count(*) AS n FROM ${table}`).get()!.n);
  }

  /** Merged tables: the new ids among these, in the server's order (newest first), go above every row held. */
  placeOnTop(table: 'entries' | 'history', ids: readonly string[]): void {
    const fresh = [...new Set(ids)].filter((id) => !this.placed.has(`${table}:${id}`) && !this.holds(table, id));
    const top = Number(this.db.prepare(`SELECT coalesce(min(position), 0) AS top FROM ${table}`).get()!.top);
    fresh.forEach((id, index) => this.placed.set(`${table}:${id}`, top - fresh.length + index));
  }

  /**
   * The entries whose own history is read again for undated events: those new or changed this run (every entry with
   * --full). The undated events of the others stay as they are: imports do not change on their own.
   */
  entriesToReread(): string[] {
    const ids = this.options.full
      ? this.db
          .prepare('SELECT id FROM temp.seen_entries')
          .all()
          .map((row) => row.id as string)
      : [...this.changedEntries];
    this.db.exec('CREATE TEMP TABLE IF NOT EXISTS reread_entries (id TEXT PRIMARY KEY); DELETE FROM temp.reread_entries;');
    const mark = this.db.prepare('INSERT OR IGNORE INTO temp.reread_entries(id) VALUES (?)');
    for (const id of ids) mark.run(id);
    this.table('history').keep(
      'date IS NULL AND entry_id IN (SELECT id FROM temp.seen_entries) AND entry_id NOT IN (SELECT id FROM temp.reread_entries)',
    );
    return ids;
  }

  /** Deletes what the server no longer shows, rebuilds the search indexes that changed; the run's counts. */
  finish(): Counts {
    const counts: Counts = { added: 0, changed: 0, removed: 0 };
    for (const table of this.tables.values()) {
      table.finish();
      counts.added += table.counts.added;
      counts.changed += table.counts.changed;
      counts.removed += table.counts.removed;
    }
    const { full } = this.options;
    for (const [table, sync] of this.tables) {
      const { search }: ItemTableSpec = ITEM_TABLES[table];
      if (search && (sync.touched || full)) this.db.exec(`INSERT INTO ${search}(${search}) VALUES ('rebuild')`);
    }
    // An event's domain is its entry's or work's: set once both are in place, whichever of them came or changed.
    if ((['entries', 'works', 'history'] as const).some((table) => this.table(table).touched) || full) refreshEventDomains(this.db);
    if ((['entries', 'history'] as const).some((table) => this.table(table).touched) || full) refreshLastActivity(this.db);
    return counts;
  }

  // --- the items ---------------------------------------------------------------------------------------------

  entry(entry: Record<string, unknown>): Outcome {
    this.work(entry);
    const id = text(entry.id)!;
    const outcome = this.put(
      'entries',
      entryRow(
        entry,
        this.placeOf('entries', id, () => this.next('entries')),
      ),
      entry,
    );
    if (outcome === 'added' || outcome === 'changed') this.changedEntries.push(id);
    this.progress();
    return outcome;
  }

  event(event: Record<string, unknown>): Outcome {
    return this.putEvent(
      event,
      this.placeOf('history', text(event.id), () => this.next('history')),
    );
  }

  undatedEvent(entryId: string, event: Record<string, unknown>): void {
    this.putEvent(
      { entryId, ...event },
      this.placeOf('history', text(event.id), () => UNDATED_POSITION + this.undated++, 'last'),
    );
  }

  list(list: Record<string, unknown>, items: unknown[]): void {
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

  review(review: unknown): void {
    if (!isObject(review) || text(review.id) === null) return;
    this.work(review);
    this.put('reviews', reviewRow(review, this.next('reviews')), review);
  }

  achievement(achievement: unknown): void {
    if (!isObject(achievement)) return;
    const position = this.next('achievements');
    this.put('achievements', achievementRow(achievement, position, text(achievement.id) ?? syntheticId('achievement', achievement, '')), achievement);
  }

  notification(notification: unknown): void {
    if (!isObject(notification)) return;
    const position = this.next('notifications');
    const id = text(notification.id) ?? syntheticId('notification', notification, '');
    this.put('notifications', notificationRow(notification, position, id), notification);
  }

  calendarItem(item: unknown): void {
    if (!isObject(item)) return;
    this.work(item);
    const position = this.next('calendar');
    this.put('calendar', calendarRow(item, position, text(item.id) ?? syntheticId('calendar', item, '')), item);
  }

  profile(profile: Record<string, unknown>): void {
    this.put('profile', profileRow(profile), profile);
  }

  stats(summary: unknown): void {
    this.put('stats', { id: 'all' }, summary);
  }

  // --- rows --------------------------------------------------------------------------------------------------

  /** A TableSync for every table of items, its columns read from the mirror's schema; the counters from zero. */
  private reset(): void {
    const changedAt = new Date(this.options.now()).toISOString();
    this.tables = new Map(
      (Object.keys(ITEM_TABLES) as ItemTable[]).map((table) => [
        table,
        new TableSync(
          this.db,
          table,
          columnsOf(this.db, table),
          table === 'history' ? sameEvent : table === 'stats' ? sameFigures : undefined,
          changedAt,
        ),
      ]),
    );
    this.changedEntries.length = 0;
    this.positions = {};
    this.undated = 0;
  }

  private table(name: ItemTable): TableSync {
    return this.tables.get(name)!;
  }

  private put(table: ItemTable, row: Row, item: unknown): ReturnType<TableSync['put']> {
    return this.table(table).put(row, JSON.stringify(item));
  }

  private work(item: unknown): void {
    const work = workOf(item);
    if (work) this.put('works', workRow(work), work);
  }

  private putEvent(event: Record<string, unknown>, position: number): Outcome {
    // An event's work is a summary, and may be dressed otherwise than the library's (an instance's history need not
    // embed works as its library does): in a quick sync it adds a work the mirror lacks, never rewrites a held one
    // (the entries the events touch are read again, with their works as the library has them).
    const work = workOf(event);
    if (!(this.merged.has('works') && work && text(work.id) !== null && this.holds('works', text(work.id)!))) this.work(event);
    const id = text(event.id) ?? syntheticId('event', event, String(position));
    const row = eventRow(event, position, id);
    const outcome = this.put('history', { ...row, domain: this.eventDomain(row.entry_id ?? null, row.work_id ?? null) }, event);
    this.progress();
    return outcome;
  }

  /**
   * An item's place: in the server's order (`next`), or in a merged table the place given ahead, else the row's own,
   * else a new one above every row (or, `last`, below every row: an undated event).
   */
  private placeOf(table: 'entries' | 'history', id: string | null, next: () => number, end: 'top' | 'last' = 'top'): number {
    if (!this.merged.has(table) || id === null) return next();
    const given = this.placed.get(`${table}:${id}`);
    if (given !== undefined) return given;
    const stored = this.db.prepare(`SELECT position FROM ${table} WHERE id = ?`).get(id)?.position;
    if (stored !== undefined && stored !== null) return Number(stored);
    const edge = end === 'top' ? 'coalesce(min(position), 0) - 1' : `max(coalesce(max(position), 0) + 1, ${UNDATED_POSITION})`;
    const place = Number(this.db.prepare(`SELECT ${edge} AS place FROM ${table}`).get()!.place);
    this.placed.set(`${table}:${id}`, place);
    return place;
  }

  private next(table: ItemTable): number {
    const position = this.positions[table] ?? 0;
    this.positions[table] = position + 1;
    return position;
  }

  private progress(): void {
    if (!this.options.onProgress) return;
    const now = this.options.now();
    if (now - this.lastProgress < PROGRESS_MS) return;
    this.lastProgress = now;
    const count = (table: ItemTable) => (this.positions[table] ?? 0).toLocaleString('en-US');
    this.options.onProgress(`${count('entries')} entries, ${count('history')} events`);
  }
}

/** Top-level fields of a stats summary that say when it was made, not what it counts (docs/api.md shows none). */
const GENERATION_TIMES = ['generatedAt', 'generated_at', 'generated', 'computedAt', 'computed_at'];

/**
 * An instance whose stats carry their generation time changes them at every request: the same figures made again
 * are no change, so that a sync that changed nothing else records none, and the documents lk serve makes from the
 * mirror (stamped with its last change, read.ts mirrorStamp) keep their bytes and ETags. The stored summary keeps
 * the time its figures were first made.
 */
function sameFigures(stored: string, incoming: string): boolean {
  const bare = (text: string) => {
    const value = JSON.parse(text) as unknown;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    return Object.fromEntries(Object.entries(value).filter(([key]) => !GENERATION_TIMES.includes(key)));
  };
  return sameValue(bare(stored), bare(incoming));
}

/**
 * The export's events carry workId where the pages carry the whole work, and may list their fields in another order
 * (an entry's own history puts entryId first): the same event either way.
 */
function sameEvent(stored: string, incoming: string): boolean {
  const bare = (text: string) => {
    const { work, workId, ...rest } = JSON.parse(text) as Record<string, unknown>;
    return { rest, workId: workId ?? (work as { id?: unknown } | undefined)?.id };
  };
  const a = bare(stored);
  const b = bare(incoming);
  return sameValue(a.rest, b.rest) && a.workId === b.workId && a.workId !== undefined;
}
