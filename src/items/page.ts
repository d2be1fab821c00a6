import { getPath } from '../util/object-path.js';

/**
 * An item's page in the web app: docs/api.md gives works a `url`; the sandbox gives entries, lists and the profile
 * theirs too. lk links an item to its own page, else to its work's (lk open, the tables' titles, lk mcp's links).
 */
export const ownPageOf = (item: unknown): unknown => getPath(item, 'url');
export const workPageOf = (item: unknown): unknown => getPath(item, 'work.url');
/** Its own page, else its work's (the value as sent: a caller checks that it is an http(s) URL). */
export const pageOf = (item: unknown): unknown => ownPageOf(item) ?? workPageOf(item);
