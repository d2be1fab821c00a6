import { openForReading, openForWriting, type Database, type Statement } from '../mirror/open.js';
import { migrate, NOTIFY_LEDGER_VERSION } from '../mirror/migrations.js';

/**
 * What each target has taken, in the mirror (table notify_sent, migration 6): one row per (target, message), written
 * on its own the moment the target answered that it took the message. So an interrupted run loses nothing it
 * learnt, and sends again at most the messages that were in flight (at least once, duplicates bounded).
 * A message a target refused for its own content (notify_failed, migration 7) is counted per run and given up after
 * GIVE_UP_AFTER runs: it never holds the target's other messages back, nor is it tried for ever.
 */
export const GIVE_UP_AFTER = 3;

/** The mirror as lk notify uses it: read-only for a dry run (it records nothing), else writable for its ledger. */
export function openNotifyMirror(path: string, dryRun: boolean): Database {
  return dryRun ? openForReading(path) : openForWriting(path);
}

export class Ledger {
  private readonly has: Statement | undefined;
  private readonly add: Statement | undefined;
  private readonly tries: Statement | undefined;
  private readonly fail: Statement | undefined;

  /** `writing`: the mirror opened for writing (given the ledger if an older lk made it); else read as it is (--dry-run). */
  constructor(db: Database, writing: boolean) {
    if (writing) upgrade(db);
    const table = (name: string) => db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
    if (table('notify_sent')) this.has = db.prepare('SELECT 1 FROM notify_sent WHERE target = ? AND key = ?');
    if (table('notify_failed')) this.tries = db.prepare('SELECT tries FROM notify_failed WHERE target = ? AND key = ?');
    if (!writing) return;
    this.add = db.prepare('INSERT OR IGNORE INTO notify_sent (target, key, sent_at) VALUES (?, ?, ?)');
    this.fail = db.prepare(
      `INSERT INTO notify_failed (target, key, tries, error, failed_at) VALUES (?, ?, 1, ?, ?)
       ON CONFLICT (target, key) DO UPDATE SET tries = tries + 1, error = excluded.error, failed_at = excluded.failed_at`,
    );
  }

  /** Whether the target (any of its ids: targets.ts) has taken the message of this key, or it was given up. */
  done(targets: readonly string[], key: string): boolean {
    return targets.some((target) => this.has?.get(target, key) !== undefined || this.triesOf(target, key) >= GIVE_UP_AFTER);
  }

  /** How many runs the target refused the message for its content. */
  triesOf(target: string, key: string): number {
    return Number(this.tries?.get(target, key)?.tries ?? 0);
  }

  /** The target took the message: recorded at once (its own transaction), never sent to it again. */
  record(target: string, key: string, at: number): void {
    if (!this.add) throw new Error('the ledger was opened for reading');
    this.add.run(target, key, new Date(at).toISOString());
  }

  /** The target refused the message for its content once more; returns the runs it has now been refused. */
  refused(target: string, key: string, error: string, at: number): number {
    if (!this.fail) throw new Error('the ledger was opened for reading');
    this.fail.run(target, key, error, new Date(at).toISOString());
    return this.triesOf(target, key);
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
