import type { Page } from '../api/paginate.js';
import type { OutputSession } from './session.js';
import type { View } from './view.js';

/**
 * What a command's run returns for the wrapper (src/commands/define.ts) to show: the command gathers, this decides
 * how it reads. Both are lazy, so that the output flags (-o, --fields) are checked before the first request is sent.
 */
export type Result = Listing | Resource;

/** Items page by page (an async stream), shown through a view. */
export interface Listing {
  kind: 'listing';
  pages: AsyncIterable<Page>;
  view: View;
  /** The command takes --page/--all, so "Showing N of TOTAL" can suggest them. */
  paged: boolean;
}

/**
 * One value. `layout` is how a table shows it: `view` (the default, a record through a view or key/value lines),
 * `sections` (stats, profile: a section per group of figures), `account` (lk whoami), `list` (a list with its items).
 */
export interface Resource {
  kind: 'resource';
  read: () => Promise<unknown>;
  view?: View;
  layout?: 'view' | 'sections' | 'account' | 'list';
}

export const listing = (pages: AsyncIterable<Page>, view: View, paged: boolean): Listing => ({ kind: 'listing', pages, view, paged });
export const resource = (read: () => Promise<unknown>, more: Omit<Resource, 'kind' | 'read'> = {}): Resource => ({ kind: 'resource', read, ...more });

/** Shows a result in the run's format, to stdout or the -o file. */
export async function showResult(result: Result, out: OutputSession): Promise<void> {
  const options = await out.outputOptions();
  const render = await import('./render.js');
  if (result.kind === 'listing') return render.renderListing(result.pages, result.view, options, { paged: result.paged });
  const value = await result.read();
  switch (result.layout ?? 'view') {
    case 'sections':
      return render.renderSections(value, options);
    case 'account':
      return render.renderWhoami(value, options);
    case 'list':
      return render.renderListWithItems(value, options);
    case 'view':
      return render.renderSingle(value, result.view, options);
  }
}
