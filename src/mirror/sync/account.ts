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

/** Whose data the mirror file at `path` holds, read without writing a byte; undefined when it cannot say. */
export function accountHeldAt(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  let db: Database;
  try {
    db = openForReading(path);
  } catch {
    return undefined; // not a mirror yet (a first sync writing it): nothing to protect
  }
  try {
    return mirrorAccount(db);
  } finally {
    db.close();
  }
}
