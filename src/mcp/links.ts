import { ownPageOf, workPageOf } from '../items/page.js';
import { linkableUrl } from '../output/terminal/hyperlinks.js';

/** An item as the server sent it, with its page in the web app. */
export interface Linked {
  link: string | null;
  item: unknown;
}

/**
 * The item's own page in the web app, else its work's (as `lk open` finds it): only an http(s) URL the server gave,
 * never one made up.
 */
export function linked(item: unknown): Linked {
  return { link: linkableUrl(ownPageOf(item)) ?? linkableUrl(workPageOf(item)) ?? null, item };
}
