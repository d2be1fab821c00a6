import type { Database, Statement } from '../mirror/open.js';
import { migrate, NOTIFY_LEDGER_VERSION } from '../mirror/migrations.js';

/**
 * What each target has taken, in the mirror (table notify_sent, migration 5): one row per (target, message), written
 * on its own the moment the target answered that it took the message. So an interrupted run loses nothing it
 * learnt, and sends again at most the messages that were in flight (at least once, duplicates bounded).
 */
export class Ledger {
  private readonly has: Statement | undefined;
  private readonly add: Statement | undefined;

  /** `writing`: the mirror opened for writing (given the ledger if an older lk made it); else read as it is (--dry-run). */
  constructor(db: Database, writing: boolean) {
    if (writing) upgrade(db);
    else if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'notify_sent'").get()) return;
    this.has = db.prepare('SELECT 1 FROM notify_sent WHERE target = ? AND key = ?');
    if (writing) this.add = db.prepare('INSERT OR IGNORE INTO notify_sent (target, key, sent_at) VALUES (?, ?, ?)');
  }

  /** Whether the target (its id: targets.ts) has taken the message of this key. */
  sent(target: string, key: string): boolean {
    return this.has !== undefined && this.has.get(target, key) !== undefined;
  }

  /** The target took the message: recorded at once (its own transaction), never sent to it again. */
  record(target: string, key: string, at: number): void {
    if (!this.add) throw new Error('the ledger was opened for reading');
    this.add.run(target, key, new Date(at).toISOString());
  }
}

/** A mirror an older lk made, not synced since, gets the ledger the way a sync would give it (its own transaction). */
function upgrade(db: Database): void {
  const version = Number(db.prepare('PRAGMA user_version').get()?.user_version ?? 0);
  if (version >= NOTIFY_LEDGER_VERSION) return;
  db.exec('BEGIN IMMEDIATE');
  try {
    migrate(db);
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}
