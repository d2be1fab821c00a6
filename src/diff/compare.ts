import { LkError } from '../util/errors.js';
import { text } from '../items/values.js';
import { itemWorkTitleOf, workDomain } from '../items/work.js';
import { entryDomainOf, entryTitleOf, ownerEntryIdOf } from '../items/entry.js';
import { ownerOfExport } from '../items/account.js';
import { fieldChanges } from './fields.js';
import { isObject, sameValue } from '../util/json-value.js';
import { DOMAINS } from '../vocabulary.js';
import {
  OTHER_COLLECTIONS,
  TITLE_OF,
  type ChangedItem,
  type CollectionDiff,
  type DomainCounts,
  type ExportDiff,
  type FieldChange,
  type HistoryDiff,
  type Item,
} from './model.js';
import { DuplicateIds } from './duplicate-ids.js';
import { PendingTexts } from './pending.js';
import { ScanError, type ScanItem } from '../util/json-scan.js';

/**
 * Compares two states of an account read as texts (scan.ts), both at once and in step: an item of one side found
 * word for word on the other is the same item and is never parsed (pending.ts finds it, mostly without hashing).
 * Only what is left on either side is parsed, matched by `id` (the one field docs/api.md promises; an item without one
 * is matched by its whole content) and compared field by field. Two exports of a 100,000-entry account differ in a
 * few items: the work is then reading the bytes, and the memory a few thousand items.
 */

/** One side: an export file, the mirror, or a commit of lk export --git; `label` names it in messages. */
export interface DiffSource {
  label: string;
  /** The side's items, a batch at a time; a ScanError says the text is not the expected JSON. */
  batches(): AsyncIterable<ScanItem[]>;
  /** Why a part it lacks is missing, when it knows (the mirror does); an export cannot tell. */
  lacksBecause?: string;
}

/** A side that cannot be compared: one line naming it and why, exit 1. */
export class DiffInputError extends LkError {
  constructor(label: string, reason: string) {
    super(`${label}: ${reason}`);
  }
}

type Collection = 'library' | 'history' | (typeof OTHER_COLLECTIONS)[number];
const COLLECTIONS: readonly Collection[] = ['library', 'history', ...OTHER_COLLECTIONS];
/** The export's member names as lk reads them (the mirror's sync reads `entries` as the library too). */
const COLLECTION_OF: Record<string, Collection | undefined> = {
  library: 'library',
  entries: 'library',
  history: 'history',
  ...Object.fromEntries(OTHER_COLLECTIONS.map((name) => [name, name])),
};

/** A part of the export one side lacks: it is not compared (an older export, or an instance that leaves it out). */
export interface Uncompared {
  /** The collection (`lists`, `profile`, …). */
  part: string;
  /** The label of the side that lacks it. */
  lacking: string;
  /** Why, when that side knows (DiffSource.lacksBecause). */
  because: string | undefined;
}

export interface Comparison {
  diff: ExportDiff;
  /** What one side lacks, and so was not compared: the caller says so on stderr. */
  uncompared: Uncompared[];
  /** The title of an event's entry, on whichever side shows it (lk diff -v names the events by it). */
  eventTitle: (event: Item) => string | null;
  /** Per side that has any, ids more than one item of a collection carries ("library e1 ×2"): compared all the same. */
  duplicates: { label: string; said: string }[];
}

class Side {
  readonly arrays = new Set<string>();
  /** Top-level values that are not arrays (account, profile, exportedAt), as texts. */
  readonly values = new Map<string, string>();
  readonly pending = Object.fromEntries(COLLECTIONS.map((name) => [name, new PendingTexts()])) as Record<Collection, PendingTexts>;
  /** Entry id → domain and title, for counting the events that differ per domain and naming them. */
  readonly entries = new Map<string, EntryFacts>();
  readonly ids = new DuplicateIds();
  elements = 0;

  constructor(readonly source: DiffSource) {}

  has(part: string): boolean {
    return part === 'profile' ? this.values.has(part) : this.arrays.has(part);
  }
}

interface EntryFacts {
  domain: string | null;
  title: string | null;
}

export async function compareSources(oldSource: DiffSource, newSource: DiffSource): Promise<Comparison> {
  const sides = [new Side(oldSource), new Side(newSource)] as const;
  await readInStep(sides, (side, other, item) => {
    if (item.kind === 'array') side.arrays.add(item.key.toLowerCase());
    else if (item.kind === 'value') side.values.set(item.key.toLowerCase(), item.text);
    else {
      side.elements += 1;
      const collection = COLLECTION_OF[item.key.toLowerCase()];
      if (collection === undefined) return;
      if (collection === 'library') noteEntryFacts(side.entries, item.text);
      side.ids.note(collection, idOf(item.text));
      if (!other.pending[collection].take(item.text)) side.pending[collection].add(item.text);
    }
  });
  const [before, after] = sides;
  for (const side of sides) {
    if (!side.arrays.has('library') && !side.arrays.has('entries')) {
      throw new DiffInputError(side.source.label, 'not an export written by lk export (it holds no library)');
    }
  }
  refuseAnotherAccount(before, after);

  // A part one side lacks is not compared: an export from before lk added it is no evidence that it was emptied.
  const uncompared: Uncompared[] = [];
  const comparable = (part: string) => {
    const lacking = sides.find((side) => !side.has(part));
    if (lacking && sides.some((side) => side.has(part)))
      uncompared.push({ part, lacking: lacking.source.label, because: lacking.source.lacksBecause });
    return lacking === undefined;
  };
  const pair = (collection: Collection): Matched =>
    collection === 'library' || collection === 'history' || comparable(collection)
      ? matchById(parseAll(oldSource, before.pending[collection].left()), parseAll(newSource, after.pending[collection].left()))
      : { added: [], removed: [], pairs: [] };
  const library = pair('library');
  const titled = (collection: (typeof OTHER_COLLECTIONS)[number]) => collectionDiff(pair(collection), (item) => text(TITLE_OF[collection](item)));
  const diff: ExportDiff = {
    added: library.added,
    removed: library.removed,
    changed: library.pairs.map(([old, now]) => changedItem(old, now, entryTitleOf(now), entryDomainOf(now))).filter(hasChanges),
    history: historyDiff(pair('history'), before.entries, after.entries),
    lists: titled('lists'),
    reviews: titled('reviews'),
    profile: { changes: comparable('profile') ? profileChanges(before, after) : [] },
    notifications: titled('notifications'),
    achievements: titled('achievements'),
  };
  const eventTitle = (event: Item) => {
    const entryId = ownerEntryIdOf(event);
    const facts = entryId === null ? undefined : (after.entries.get(entryId) ?? before.entries.get(entryId));
    return facts?.title ?? itemWorkTitleOf(event);
  };
  const duplicates = sides.flatMap((side) => {
    const said = side.ids.said();
    return said === undefined ? [] : [{ label: side.source.label, said }];
  });
  return { diff, uncompared, eventTitle, duplicates };
}

function profileChanges(before: Side, after: Side): FieldChange[] {
  const [a, b] = [before, after].map((side) => parseOne(side.source, side.values.get('profile')!));
  if (!isObject(a) || !isObject(b)) return sameValue(a, b) ? [] : [{ field: 'profile', before: a, after: b }];
  return fieldChanges(a, b);
}

/**
 * Reads both sides, a batch at a time from the one that has read fewer elements, so that the same item arrives on
 * both at about the same moment and waits little.
 */
async function readInStep(sides: readonly [Side, Side], visit: (side: Side, other: Side, item: ScanItem) => void): Promise<void> {
  const readers = sides.map((side) => side.source.batches()[Symbol.asyncIterator]());
  const done = [false, false];
  try {
    while (!done[0] || !done[1]) {
      const at = done[0] ? 1 : done[1] ? 0 : sides[1].elements < sides[0].elements ? 1 : 0;
      const side = sides[at]!;
      const other = sides[1 - at]!;
      let batch: IteratorResult<ScanItem[]>;
      try {
        batch = await readers[at]!.next();
      } catch (error) {
        if (error instanceof ScanError) throw new DiffInputError(side.source.label, `not an export written by lk export (${error.message})`);
        throw error;
      }
      if (batch.done) done[at] = true;
      else for (const item of batch.value) visit(side, other, item);
    }
  } finally {
    // A side that failed leaves the other's file open otherwise.
    await Promise.all(readers.map((reader, at) => (done[at] ? undefined : reader.return?.())));
  }
}

/** Entry id → domain and title, read without parsing where the text shows them plainly (it nearly always does). */
const LEADING_ID = /^\{\s*"id"\s*:\s*(?:"([^"\\]*)"|(-?\d+))/;
const WORK_DOMAIN = new RegExp(`"domain"\\s*:\\s*"(${DOMAINS.join('|')})"`);
/** The first "title" member: the work's, in an export's entry (lk's files and the service's both nest no other before it). */
const FIRST_TITLE = /"title"\s*:\s*("(?:[^"\\]|\\.)*")/;

/** An item's id, read without parsing where it comes first (it nearly always does); null when it has none. */
function idOf(item: string): string | null {
  const id = LEADING_ID.exec(item);
  if (id) return id[1] ?? id[2]!;
  if (!item.includes('"id"')) return null;
  try {
    const parsed = JSON.parse(item) as unknown;
    return isObject(parsed) ? text(parsed.id) : null;
  } catch {
    return null; // the comparison says so, if it is an item that differs
  }
}

function noteEntryFacts(entries: Map<string, EntryFacts>, entry: string): void {
  const id = LEADING_ID.exec(entry);
  const domain = id ? WORK_DOMAIN.exec(entry) : null;
  if (id && domain) {
    // No title member (an instance that calls it otherwise): the events are listed without one, never parsed for it.
    const title = FIRST_TITLE.exec(entry);
    entries.set(id[1] ?? id[2]!, { domain: domain[1]!, title: title ? (JSON.parse(title[1]!) as string) : null });
    return;
  }
  let item: unknown;
  try {
    item = JSON.parse(entry);
  } catch {
    return; // the comparison says so, if it is an item that differs
  }
  const entryId = isObject(item) ? text(item.id) : null;
  if (entryId !== null) entries.set(entryId, { domain: entryDomainOf(item), title: entryTitleOf(item) });
}

/** Whose account a side is: the export's account (or profile) object, by id, else by username. */
function ownerOf(side: Side): { id: string | null; name: string | null } | undefined {
  for (const key of ['account', 'profile']) {
    const value = side.values.get(key);
    if (value === undefined) continue;
    const owner = parseOne(side.source, value);
    if (isObject(owner)) return ownerOfExport(owner);
  }
  return undefined;
}

function refuseAnotherAccount(oldSide: Side, newSide: Side): void {
  const before = ownerOf(oldSide);
  const after = ownerOf(newSide);
  if (!before || !after) return;
  // By id where both sides have one (two accounts may share a name on two instances), else by name.
  const byId = before.id !== null && after.id !== null;
  const differ = byId ? before.id !== after.id : before.name !== null && after.name !== null && before.name !== after.name;
  if (!differ) return;
  const whose = (owner: { id: string | null; name: string | null }) =>
    byId && owner.name !== null ? `${owner.name}, id ${owner.id}` : (owner.name ?? `id ${owner.id}`);
  throw new DiffInputError(
    newSide.source.label,
    `an export of another account (${whose(after)}) than ${oldSide.source.label} (${whose(before)}); lk diff compares two states of one account`,
  );
}

function parseOne(source: DiffSource, value: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw new DiffInputError(source.label, 'not an export written by lk export (an item is not valid JSON)');
  }
}

function parseAll(source: DiffSource, items: string[]): Item[] {
  return items.map((item) => parseOne(source, item)).filter(isObject);
}

/** `id` when the item has one (number or text: an instance may use UUIDs), else its whole content. */
function keyOf(item: Item): string {
  const id = text(item.id);
  return id === null ? `content:${JSON.stringify(item)}` : `id:${id}`;
}

interface Matched {
  added: Item[];
  removed: Item[];
  pairs: [Item, Item][];
}

/** Matched by key; items of one key (an id carried twice) are paired one to one as they are left, and none is dropped. */
function matchById(before: Item[], after: Item[]): Matched {
  const byKey = new Map<string, Item[]>();
  for (const item of before) {
    const key = keyOf(item);
    const same = byKey.get(key);
    if (same) same.push(item);
    else byKey.set(key, [item]);
  }
  const added: Item[] = [];
  const pairs: [Item, Item][] = [];
  for (const item of after) {
    const old = byKey.get(keyOf(item))?.shift();
    if (old === undefined) added.push(item);
    else pairs.push([old, item]);
  }
  return { added, removed: [...byKey.values()].flat(), pairs };
}

function changedItem(before: Item, after: Item, title: string | null, domain: string | null): ChangedItem {
  return { id: text(after.id) ?? '', title, domain, changes: fieldChanges(before, after) };
}

const hasChanges = (item: ChangedItem) => item.changes.length > 0;

function collectionDiff(matched: Matched, titleOf: (item: Item) => string | null): CollectionDiff {
  return {
    added: matched.added,
    removed: matched.removed,
    changed: matched.pairs.map(([before, after]) => changedItem(before, after, titleOf(after), null)).filter(hasChanges),
  };
}

/**
 * Events added, removed and changed in place, counted per domain: their entry's (on the side the event is on), else
 * their work's. A changed event is named by its entry's title.
 */
function historyDiff(matched: Matched, oldEntries: Map<string, EntryFacts>, newEntries: Map<string, EntryFacts>): HistoryDiff {
  const byDomain: HistoryDiff['byDomain'] = {};
  const factsOf = (event: Item, entries: Map<string, EntryFacts>) => {
    const entryId = ownerEntryIdOf(event);
    return entryId === null ? undefined : entries.get(entryId);
  };
  const count = (event: Item, entries: Map<string, EntryFacts>, side: keyof DomainCounts) => {
    const domain = factsOf(event, entries)?.domain ?? workDomain(event.work) ?? 'other';
    byDomain[domain] ??= { added: 0, removed: 0, changed: 0 };
    byDomain[domain][side] += 1;
  };
  for (const event of matched.added) count(event, newEntries, 'added');
  for (const event of matched.removed) count(event, oldEntries, 'removed');
  const changed: ChangedItem[] = [];
  for (const [old, now] of matched.pairs) {
    const facts = factsOf(now, newEntries) ?? factsOf(old, oldEntries);
    const [before, after] = sameSpelling(old, now);
    const item = changedItem(before, after, facts?.title ?? itemWorkTitleOf(now), facts?.domain ?? workDomain(now.work));
    if (!hasChanges(item)) continue;
    changed.push(item);
    count(now, newEntries, 'changed');
  }
  return { added: matched.added, removed: matched.removed, changed, byDomain };
}

/** How an event may name its work or its entry: the object itself (GET /v1/history embeds the work), or its id. */
const REFERENCES = [
  ['work', 'workId'],
  ['entry', 'entryId'],
] as const;

/**
 * The two sides of an event as one spelling: where one embeds its work (a mirror synced from the pages) and the other
 * names it by id (an export), both name it by id, so that a spelling is not taken for a change; a different id still is.
 */
function sameSpelling(before: Item, after: Item): [Item, Item] {
  let [a, b] = [before, after];
  for (const [embedded, byId] of REFERENCES) {
    if (isObject(a[embedded]) === isObject(b[embedded])) continue;
    const named = (event: Item): Item => {
      if (!isObject(event[embedded])) return event;
      const { [embedded]: object, ...rest } = event;
      return { ...rest, [byId]: rest[byId] ?? (object as Item).id ?? null };
    };
    [a, b] = [named(a), named(b)];
  }
  return [a, b];
}
