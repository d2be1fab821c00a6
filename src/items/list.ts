import { firstOf, getPath } from '../util/object-path.js';
import { audienceOf } from './audience.js';

/**
 * A list is public only when marked so (visibility "public", public: true, isPublic: true: audience.ts) and marked
 * private by none: a list with no marking at all is not public, since nothing says its owner shared it. Only a public
 * list may reach a public surface, its name, description and items with it.
 */
export const listIsPublic = (list: unknown): boolean => audienceOf(list) === 'public';

/**
 * A list's other fields: docs/api.md names none. The sandbox sends `name`, `itemCount`, `visibility`, `owner` (a
 * username), its alt variant `title`, `itemsCount` and an owner object; the rest are spellings lk read somewhere.
 */
export const LIST_NAME_PATHS = ['name', 'title'] as const;
const LIST_COUNT_PATHS = ['itemCount', 'itemsCount', 'count', 'size'] as const;
/** Who owns it: a username, or an object naming the owner. */
export const LIST_OWNER_PATHS = ['owner.username', 'owner.displayName', 'owner.name', 'owner'] as const;
const LIST_UPDATED_PATHS = ['updatedAt', 'dates.updated'] as const;

export const listNameOf = (list: unknown): unknown => firstOf(list, LIST_NAME_PATHS);
export const listDescriptionOf = (list: unknown): unknown => getPath(list, 'description');
/** How it names its audience in a word (audience.ts's AUDIENCE_WORDS), as sent. */
export const listVisibilityOf = (list: unknown): unknown => firstOf(list, ['visibility']);
/** Its owner's name (an owner object's username, display name or name; or the owner as sent). */
export const listOwnerNameOf = (list: unknown): unknown => firstOf(list, LIST_OWNER_PATHS);
/** Its owner as sent: a username, or an object. */
export const listOwnerOf = (list: unknown): unknown => getPath(list, 'owner');
export const listUpdatedAtOf = (list: unknown): unknown => firstOf(list, LIST_UPDATED_PATHS);
export const listCreatedAtOf = (list: unknown): unknown => getPath(list, 'createdAt');
/** Its items, when it carries them. */
export function listItemsOf(list: unknown): unknown[] | undefined {
  const items = getPath(list, 'items');
  return Array.isArray(items) ? items : undefined;
}

/** How many items it holds: the count it says, else the items it carries; undefined when neither. */
export function listItemCountOf(list: unknown): number | undefined {
  const count = firstOf(list, LIST_COUNT_PATHS);
  if (typeof count === 'number') return count;
  return listItemsOf(list)?.length;
}

/** A list item: a work, a season or an episode. */
export const LIST_ITEM_TITLE_PATHS = ['work.title', 'show.title'] as const;
const LIST_ITEM_TYPE_PATHS = ['type', 'kind', 'itemType'] as const;
/** A list item's note (private, as an entry's notes: entry.ts's NOTE_MEMBERS are every spelling of either). */
export const LIST_ITEM_NOTE_PATHS = ['note', 'notes'] as const;
export const LIST_ITEM_ADDED_PATHS = ['addedAt', 'dates.added'] as const;

/** What the item says it is, as sent. */
export const listItemTypeSaidOf = (item: unknown): unknown => firstOf(item, LIST_ITEM_TYPE_PATHS);

/** work, season or episode: said by the item when it says so, else read from what it carries ('' when nothing). */
export function listItemTypeOf(item: unknown): string {
  const said = listItemTypeSaidOf(item);
  if (typeof said === 'string') return said.toLowerCase();
  if (getPath(item, 'episode') !== undefined) return 'episode';
  if (getPath(item, 'season') !== undefined) return 'season';
  if (getPath(item, 'work') !== undefined) return 'work';
  return '';
}

export const listItemTitleOf = (item: unknown): unknown => firstOf(item, LIST_ITEM_TITLE_PATHS);
export const listItemNoteOf = (item: unknown): unknown => firstOf(item, LIST_ITEM_NOTE_PATHS);
export const listItemAddedAtOf = (item: unknown): unknown => firstOf(item, LIST_ITEM_ADDED_PATHS);
/** The work's page. */
export const listItemPageOf = (item: unknown): unknown => getPath(item, 'work.url');
