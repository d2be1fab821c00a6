import { ENDPOINTS, pathOf, type EndpointName } from '../api/endpoints.js';
import { paginate, type PagingOptions } from '../api/paginate.js';
import type { Query } from '../api/client.js';
import type { Context } from '../context.js';
import type { OutputSession } from '../output/session.js';
import { renderListing, renderSingle } from '../output/render.js';
import type { View } from '../output/view.js';
import { entityId, pagingFrom, type PagingFlags } from './options.js';

/** What a listing command shows: an endpoint of the table (with an id where its path takes one) through a view. */
export interface ListingSpec {
  endpoint: EndpointName;
  view: View;
  /** An id for the path, as typed: checked, then encoded into its segment. */
  id?: { what: string; raw: string };
  /** Not an envelope in SPEC.md (the calendar): read whole, following pages only if the instance pages it anyway. */
  followIfPaged?: boolean;
}

/** Every listing command: its flags checked, then pages streamed through the view in the chosen format. */
export async function runListing(ctx: Context, out: OutputSession, spec: ListingSpec, query: Query, flags: PagingFlags): Promise<void> {
  const paging: PagingOptions = spec.followIfPaged ? { followIfPaged: true } : pagingFrom(flags);
  const path = spec.id ? pathOf(spec.endpoint, checkedId(spec.id)) : pathOf(spec.endpoint);
  const output = await out.outputOptions();
  const client = await ctx.client();
  // A 404 on the first page of an entry's listing means the entry does not exist.
  const requestOptions = spec.id ? { notFound: `${spec.id.what} ${spec.id.raw}` } : {};
  await renderListing(paginate(client, path, query, paging, requestOptions), spec.view, output, { paged: ENDPOINTS[spec.endpoint].paged });
}

/** One resource by its id (`lk library show`), through its view. */
export async function runSingle(
  ctx: Context,
  out: OutputSession,
  spec: Required<Pick<ListingSpec, 'endpoint' | 'view' | 'id'>>,
  query: Query,
): Promise<void> {
  const path = pathOf(spec.endpoint, checkedId(spec.id));
  const output = await out.outputOptions();
  const client = await ctx.client();
  const response = await client.get(path, query, { notFound: `${spec.id.what} ${spec.id.raw}` });
  await renderSingle(response.json, spec.view, output);
}

/** Checked before any request; encoded by pathOf. */
function checkedId({ what, raw }: { what: string; raw: string }): string {
  return entityId(what.replace(/^library /, ''), raw);
}
