import type { Database, Statement } from './open.js';
import type { Row } from './rows.js';

/** Rows added, changed (their json differs) and removed by a sync. */
export interface Counts {
  added: number;
  changed: number;
  removed: number;
}

/** The column a table may have that says when its row last changed in the mirror (migrations.ts, step 8). */
const CHANGED_AT = 'changed_at';

/**
 * Brings one table to what the server showed this run: each row put is compared with the stored one by its json
 * (the server's item) and inserted, replaced or left alone; the ids seen are kept in a temporary table, and at the
 * end every row not seen is deleted. A change of place alone (new items above it) updates `position` silently.
 */
export class TableSync {
  readonly counts: Counts = { added: 0, changed: 0, removed: 0 };
  /** Not read this run (e.g. the key lacks the scope): its rows are left as they were. */
  skipped = false;
  private readonly seen: Statement;
  private readonly select: Statement;
  private readonly insert: Statement;
  private readonly update: Statement;
  private readonly move: Statement | undefined;
  /** The columns an update sets: all but id. */
  private readonly updated: readonly string[];

  constructor(
    private readonly db: Database,
    readonly table: string,
    /** Every column but json (its id among them). */
    private readonly columns: readonly string[],
    /** Two spellings of one item (an export's event with workId, a page's with the work): not a change. */
    private readonly sameItem?: (stored: string, incoming: string) => boolean,
    /** Written to the table's changed_at column (when it has one) on every row added or changed: this sync's time. */
    private readonly changedAt?: string,
  ) {
    this.updated = columns.filter((column) => column !== 'id');
    const seenTable = `temp.seen_${table}`;
    db.exec(`CREATE TEMP TABLE IF NOT EXISTS seen_${table} (id TEXT PRIMARY KEY); DELETE FROM ${seenTable};`);
    const hasPosition = columns.includes('position');
    this.seen = db.prepare(`INSERT OR IGNORE INTO ${seenTable}(id) VALUES (?)`);
    this.select = db.prepare(`SELECT json${hasPosition ? ', position' : ''} FROM ${table} WHERE id = ?`);
    const all = [...columns, 'json'];
    this.insert = db.prepare(`INSERT INTO ${table} (${all.join(', ')}) VALUES (${all.map(() => '?').join(', ')})`);
    this.update = db.prepare(`UPDATE ${table} SET ${[...this.updated, 'json'].map((c) => `${c} = ?`).join(', ')} WHERE id = ?`);
    this.move = hasPosition ? db.prepare(`UPDATE ${table} SET position = ? WHERE id = ?`) : undefined;
  }

  /** Whether this id was already put this run (a listing that shifted while paging repeats items). */
  has(id: string): boolean {
    return this.db.prepare(`SELECT 1 FROM temp.seen_${this.table} WHERE id = ?`).get(id) !== undefined;
  }

  /** Puts a row; returns 'added', 'changed', 'same' or 'repeat' (already put this run: the first one stands). */
  put(row: Row, json: string): 'added' | 'changed' | 'same' | 'repeat' {
    const id = row.id as string;
    if (Number(this.seen.run(id).changes) === 0) return 'repeat';
    const stored = this.select.get(id);
    if (!stored) {
      this.insert.run(...this.columns.map((column) => this.value(row, column)), json);
      this.counts.added += 1;
      return 'added';
    }
    if (stored.json !== json && !this.sameItem?.(stored.json as string, json)) {
      this.update.run(...this.updated.map((column) => this.value(row, column)), json, id);
      this.counts.changed += 1;
      return 'changed';
    }
    if (this.move && stored.position !== row.position) this.move.run(row.position, id);
    return 'same';
  }

  private value(row: Row, column: string): unknown {
    return column === CHANGED_AT ? (this.changedAt ?? null) : (row[column] ?? null);
  }

  /** Marks rows as still present without re-reading them (undated events of entries that did not change). */
  keep(whereSql: string, ...params: unknown[]): void {
    this.db.prepare(`INSERT OR IGNORE INTO temp.seen_${this.table}(id) SELECT id FROM ${this.table} WHERE ${whereSql}`).run(...params);
  }

  /** Deletes the rows not seen this run. */
  finish(): void {
    if (this.skipped) return;
    const result = this.db.prepare(`DELETE FROM ${this.table} WHERE id NOT IN (SELECT id FROM temp.seen_${this.table})`).run();
    this.counts.removed += Number(result.changes);
  }

  get touched(): boolean {
    return this.counts.added + this.counts.changed + this.counts.removed > 0;
  }
}
