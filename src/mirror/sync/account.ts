import { LkError } from '../../util/errors.js';
import { existsSync } from 'node:fs';
import type { Database } from '../database.js';
import { openForReading } from '../open.js';

/**
 * One mirror, one account: the mirror records whose data it holds (mirror_meta account), and a sync with a key of
 * another account would replace every row of it with the other account's without a word. It is refused, naming
 * both, before anything is written, unless the user says so (--replace).
 */

/** Whose data the mirror holds; undefined for a new file or a mirror that never learned it. */
export function mirrorAccount(db: Database): string | undefined {
  try {
    const value = db.prepare("SELECT value FROM mirror_meta WHERE key = 'account'").get()?.value;
    return typeof value === 'string' && value !== '' ? value : undefined;
  } catch {
    return undefined; // no mirror_meta yet: a new file
  }
}

/** Throws (exit 1) when the mirror holds another account's data than the key's, unless `replace`. */
export function refuseOtherAccount(path: string, held: string | undefined, keyAccount: string | undefined, replace: boolean): void {
  if (replace || held === undefined || keyAccount === undefined || held === keyAccount) return;
  throw new LkError(
    `the mirror ${path} holds ${held}'s data and this key is ${keyAccount}'s: nothing was written`,
    1,
    `Use --db FILE for a mirror of ${keyAccount}, or --replace to replace ${held}'s mirror with ${keyAccount}'s.`,
  );
}

/** What lk serve --sync-every needs of the mirror at start, read without writing a byte. */
export interface HeldMirror {
  /** Whose data it holds (undefined: a new file, or one that cannot say). */
  account: string | undefined;
  /** The requests of its last sync: what the next one will cost, about (undefined: none recorded). */
  lastRequests: number | undefined;
  /** When its last sync ended, in ms (undefined: none recorded). */
  lastFinishedAt?: number | undefined;
}

/** The mirror file at `path` as lk serve finds it at start; nothing known when it is missing or not a mirror yet. */
export function heldMirror(path: string): HeldMirror {
  const none = { account: undefined, lastRequests: undefined };
  if (!existsSync(path)) return none;
  let db: Database;
  try {
    db = openForReading(path);
  } catch {
    return none; // not a mirror yet (a first sync writing it): nothing to protect
  }
  try {
    const last = db.prepare('SELECT requests, finished_at FROM sync_runs ORDER BY id DESC LIMIT 1').get();
    const finishedAt = typeof last?.finished_at === 'string' ? Date.parse(last.finished_at) : Number.NaN;
    return {
      account: mirrorAccount(db),
      lastRequests: typeof last?.requests === 'number' ? last.requests : undefined,
      lastFinishedAt: Number.isNaN(finishedAt) ? undefined : finishedAt,
    };
  } catch {
    return { account: mirrorAccount(db), lastRequests: undefined };
  } finally {
    db.close();
  }
}
