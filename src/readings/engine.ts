import { pathOf } from '../api/endpoints.js';
import { paginate, type Page, type PagingOptions } from '../api/paginate.js';
import type { Query } from '../api/client.js';
import type { Listing as MirrorListing, Window } from '../mirror/read.js';
import { mirrorAge } from '../mirror/read.js';
import { mirrorFor, type ReadingHost } from './host.js';
import { pagesOf } from './pages.js';
import { READINGS, type Filters, type ListingReading, type Reading, type ReadingName, type SingleReading } from './table.js';

/**
 * The engine: runs a reading of ./table.ts for any surface, given its host (./host.ts) — the source swapped (the API,
 * or the mirror: offline, or the only one the surface has), the language checked, the pages or the window read, the
 * mirror's age said. Who may see what is the host's audience: a public host's mirror is read through the public
 * projection (./projection.ts), so no surface decides it. The composed readings (next, status, the feed, the
 * calendar's feed, the year in review) are in ./composed.ts.
 */

/** Where a reading is answered from: the API, or the mirror. */
export type Source = 'api' | 'mirror';

/** The source a surface gets: the mirror when asked (--offline), when the host has no API, or when the API has none of it. */
export function sourceOf(host: ReadingHost, reading: Reading, offline: boolean): Source {
  const apiHas = reading.kind === 'composed' ? reading.mirrorOnly !== true : reading.api !== undefined;
  return !offline && host.api !== undefined && apiHas ? 'api' : 'mirror';
}

/** A listing's pages, as the server serves them or as the mirror's window would have been served (./pages.ts). */
export async function* listingPages(
  host: ReadingHost,
  name: ReadingName | ListingReading,
  filters: Filters,
  paging: PagingOptions,
  offline: boolean,
): AsyncGenerator<Page> {
  const reading = listingReading(name);
  if (sourceOf(host, reading, offline) === 'api') {
    const api = reading.api!;
    const client = await host.api!();
    // A 404 on the first page of an entry's listing means the entry does not exist.
    const requestOptions = api.id === undefined ? {} : { notFound: `${api.id} ${filters.id}` };
    yield* paginate(
      client,
      pathFor(reading, filters),
      queryFor(host, reading, filters),
      api.followIfPaged ? { followIfPaged: true } : paging,
      requestOptions,
    );
    return;
  }
  // The mirror's items paged as the server pages them (a listing it does not page, whole).
  const db = await mirrorFor(host, reading);
  const now = host.now();
  yield* pagesOf((window) => reading.mirror!(db, filters, window, now), reading.paged ? paging : { all: true });
}

/** A window of a listing from the mirror (lk mcp's pages), with when the mirror took it from the server. */
export async function mirrorWindow(
  host: ReadingHost,
  name: ReadingName | ListingReading,
  filters: Filters,
  window: Window,
): Promise<{ listing: MirrorListing; snapshotAt: number | undefined }> {
  const reading = listingReading(name);
  const db = await mirrorFor(host, reading);
  return { listing: reading.mirror!(db, filters, window, host.now()), snapshotAt: mirrorAge(db).snapshotAt };
}

/** One value, from the API or the mirror. */
export async function singleValue(host: ReadingHost, name: ReadingName, filters: Filters, offline: boolean): Promise<unknown> {
  const reading: Reading = READINGS[name];
  if (reading.kind !== 'single') throw new Error(`lk: the reading ${name} is not one value`);
  if (sourceOf(host, reading, offline) === 'api' || reading.mirror === undefined) {
    const client = await host.api!();
    const requestOptions = reading.api.id === undefined ? {} : { notFound: `${reading.api.id} ${filters.id}` };
    return (await client.get(pathFor(reading, filters), queryFor(host, reading, filters), requestOptions)).json;
  }
  return reading.mirror(await mirrorFor(host, reading), filters);
}

/** A listing of the table by its name, or one handed whole (a reading the table is given in a test). */
function listingReading(name: ReadingName | ListingReading): ListingReading {
  const reading: Reading = typeof name === 'string' ? READINGS[name] : name;
  if (reading.kind !== 'listing') throw new Error(`lk: the reading ${String(name)} is not a listing`);
  return reading;
}

/** The endpoint's path, with the id its path takes (checked by the surface before anything is read). */
function pathFor(reading: ListingReading | SingleReading, filters: Filters): string {
  const api = reading.api!;
  return api.id === undefined ? pathOf(api.endpoint) : pathOf(api.endpoint, filters.id ?? '');
}

/** The endpoint's query from the filters, in the run's language where the endpoint takes one. */
function queryFor(host: ReadingHost, reading: ListingReading | SingleReading, filters: Filters): Query {
  const api = reading.api!;
  return { ...api.query(filters), ...(api.lang === false ? {} : { lang: host.language?.().wanted }) };
}
