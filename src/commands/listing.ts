import { ENDPOINTS, pathOf, type EndpointName } from '../api/endpoints.js';
import { paginate, type PagingOptions } from '../api/paginate.js';
import type { Query } from '../api/client.js';
import type { Context } from '../context.js';
import { listing, resource, type Listing, type Resource } from '../output/result.js';
import type { View } from '../output/formats/view.js';
import { pagingFrom, type PagingFlags } from './options.js';
import { entityId } from './flag-values.js';

/** What a listing command shows: an endpoint of the table (with an id where its path takes one) through a view. */
export interface ListingSpec {
  endpoint: EndpointName;
  view: View;
  /** An id for the path, as typed: checked, then encoded into its segment. */
  id?: { what: string; raw: string };
  /** Not an envelope in docs/api.md (the calendar): read whole, following pages only if the instance pages it anyway. */
  followIfPaged?: boolean;
}

/** Every listing command: its flags checked, then its pages, read as the wrapper streams them through the view. */
export async function runListing(ctx: Context, spec: ListingSpec, query: Query, flags: PagingFlags): Promise<Listing> {
  const paging: PagingOptions = spec.followIfPaged ? { followIfPaged: true } : pagingFrom(flags);
  const path = spec.id ? pathOf(spec.endpoint, checkedId(spec.id)) : pathOf(spec.endpoint);
  const client = await ctx.client();
  // A 404 on the first page of an entry's listing means the entry does not exist.
  const requestOptions = spec.id ? { notFound: `${spec.id.what} ${spec.id.raw}` } : {};
  return listing(paginate(client, path, query, paging, requestOptions), spec.view, ENDPOINTS[spec.endpoint].paged);
}

/** One resource of the endpoint table by its id (`lk library show`), or without one (`lk stats`), through its view. */
export async function runSingle(
  ctx: Context,
  spec: Pick<ListingSpec, 'endpoint' | 'id'> & Omit<Resource, 'kind' | 'read'>,
  query: Query,
): Promise<Resource> {
  const { endpoint, id, ...shown } = spec;
  const path = id ? pathOf(endpoint, checkedId(id)) : pathOf(endpoint);
  const client = await ctx.client();
  const requestOptions = id ? { notFound: `${id.what} ${id.raw}` } : {};
  return resource(async () => (await client.get(path, query, requestOptions)).json, shown);
}

/** Checked before any request; encoded by pathOf. */
function checkedId({ what, raw }: { what: string; raw: string }): string {
  return entityId(what.replace(/^library /, ''), raw);
}
