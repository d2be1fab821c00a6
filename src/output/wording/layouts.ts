import { pageOf } from '../../api/paginate.js';
import { listItemsOf, listNameOf } from '../../items/list.js';
import { renderListing, renderSingle } from '../formats/render.js';
import type { OutputOptions } from '../formats/writer.js';
import { sanitizeText } from '../terminal/sanitize.js';
import { listItemView } from './views.js';

/**
 * One list: with --json the list itself, as the server sent it; otherwise its items, headed on a terminal by the
 * list's name (on stderr, so that the table stays pure data).
 */
export async function renderListWithItems(list: unknown, options: OutputOptions): Promise<void> {
  if (options.format === 'json') return renderSingle(list, undefined, options);
  const name = listNameOf(list);
  if (options.format === 'table' && typeof name === 'string' && options.io.mayNotify) {
    options.io.info(options.display.colors.bold(sanitizeText(name)));
  }
  await renderListing(pageOf(listItemsOf(list) ?? []), listItemView, options, { paged: false });
}

/**
 * `lk whoami`: GET /v1/me as the server sent it, but on a terminal the view of output/wording/account.ts, loaded only then:
 * its layout measures display widths with string-width (~40 ms to load).
 */
export async function renderAccount(me: unknown, options: OutputOptions): Promise<void> {
  if (options.format !== 'table') return renderSingle(me, undefined, options);
  const account = await import('./account.js');
  await account.writeAccount(me, options);
  // A table of nothing would leave a person wondering; --json and the other formats keep the body as it came.
  if (isEmpty(me) && options.io.mayNotify) {
    options.io.info('The server sent no account, key or rate-limit information (GET /v1/me answered with nothing in it).');
  }
}

function isEmpty(body: unknown): boolean {
  return body === null || body === undefined || (typeof body === 'object' && Object.keys(body).length === 0);
}
