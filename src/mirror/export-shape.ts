import type { Database } from './open.js';
import { EXPORTABLE_AREAS, tablesOf, type ExportableArea } from './sync/plan.js';
import { areasLeftOut } from './sync/record.js';

/**
 * The mirror read back in the export's shape (library, history, lists, reviews, notifications, achievements and the
 * profile), for `lk diff OLD` (compared with the mirror): each item's text as the
 * sync stored it (the export's own, when it synced from one), in the server's order, the lists with their items again.
 * Items come as `{kind, key, text}`, the parts src/diff reads from an export file, a batch at a time.
 */

type Part = { kind: 'array'; key: string } | { kind: 'element' | 'value'; key: string; text: string };

const BATCH = 1000;

export function* mirrorAsExport(db: Database, notHeld: ReadonlySet<string> = new Set()): Generator<Part[]> {
  const profile = notHeld.has('profile') ? undefined : db.prepare('SELECT json FROM profile LIMIT 1').get();
  if (typeof profile?.json === 'string') yield [{ kind: 'value', key: 'profile', text: profile.json }];
  yield* collection('library', db.prepare('SELECT json FROM entries ORDER BY position').iterate());
  yield* collection('history', db.prepare('SELECT json FROM history ORDER BY position').iterate());
  const held = (key: ExportableArea, rows: () => Iterable<Record<string, unknown>>) => (notHeld.has(key) ? [] : collection(key, rows()));
  yield* held('lists', () => listsWithItems(db));
  for (const key of ['reviews', 'notifications', 'achievements'] as const) {
    yield* held(key, () => db.prepare(`SELECT json FROM ${key} ORDER BY position`).iterate());
  }
}

/** The parts of an export the mirror does not hold as of its last sync, and why: lk diff compares them no more than an export's missing parts. */
export interface NotHeld {
  parts: ExportableArea[];
  why: string;
}

/**
 * What the last sync could not read (a 403 or 404 left it as it was: sync/record.ts). A mirror no sync recorded that
 * for (an older lk's) is read the safe way: an area with no rows may be one the sync was refused, so it is not
 * compared (else an export's notifications would all look removed); one with rows was read once, and is compared.
 */
export function partsNotHeld(db: Database): NotHeld {
  const leftOut = areasLeftOut(db);
  if (leftOut !== undefined) return { parts: EXPORTABLE_AREAS.filter((area) => leftOut.includes(area)), why: 'its last sync could not read them' };
  const empty = (area: ExportableArea) => db.prepare(`SELECT 1 AS one FROM ${tablesOf(area)[0]!} LIMIT 1`).get() === undefined;
  return { parts: EXPORTABLE_AREAS.filter(empty), why: 'synced by an older lk, which kept no record of what it could read; lk sync does' };
}

function* collection(key: string, rows: Iterable<Record<string, unknown>>): Generator<Part[]> {
  let batch: Part[] = [{ kind: 'array', key }];
  for (const row of rows) {
    batch.push({ kind: 'element', key, text: row.json as string });
    if (batch.length >= BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** A list as the export has it: the list's own fields, then its items (the mirror keeps them in a table of their own). */
function* listsWithItems(db: Database): Generator<Record<string, unknown>> {
  const items = db.prepare('SELECT json FROM list_items WHERE list_id = ? ORDER BY item_index');
  for (const row of db.prepare('SELECT id, json FROM lists ORDER BY position').all()) {
    const list = JSON.parse(row.json as string) as Record<string, unknown>;
    list.items = items.all(row.id).map((item) => JSON.parse(item.json as string) as unknown);
    yield { json: JSON.stringify(list) };
  }
}
