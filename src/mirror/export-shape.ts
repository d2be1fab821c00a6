import type { Database } from './open.js';

/**
 * The mirror read back in the export's shape (library, history, lists, reviews, notifications, achievements and the
 * profile), for `lk diff OLD` (compared with the mirror): each item's text as the
 * sync stored it (the export's own, when it synced from one), in the server's order, the lists with their items again.
 * Items come as `{kind, key, text}`, the parts src/diff reads from an export file, a batch at a time.
 */

type Part = { kind: 'array'; key: string } | { kind: 'element' | 'value'; key: string; text: string };

const BATCH = 1000;

export function* mirrorAsExport(db: Database): Generator<Part[]> {
  const profile = db.prepare('SELECT json FROM profile LIMIT 1').get();
  if (typeof profile?.json === 'string') yield [{ kind: 'value', key: 'profile', text: profile.json }];
  yield* collection('library', db.prepare('SELECT json FROM entries ORDER BY position').iterate());
  yield* collection('history', db.prepare('SELECT json FROM history ORDER BY position').iterate());
  yield* collection('lists', listsWithItems(db));
  yield* collection('reviews', db.prepare('SELECT json FROM reviews ORDER BY position').iterate());
  yield* collection('notifications', db.prepare('SELECT json FROM notifications ORDER BY position').iterate());
  yield* collection('achievements', db.prepare('SELECT json FROM achievements ORDER BY position').iterate());
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
