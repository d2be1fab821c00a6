import type { Page, PagingOptions } from '../api/paginate.js';
import type { Context } from '../context.js';
import type { Database } from '../mirror/open.js';
import { listing, resource, type Listing, type Resource } from '../output/result.js';
import { pagesOf } from '../readings/pages.js';
import { READINGS, type Filters, type ListingReading, type Reading, type ReadingName, type SingleReading } from '../readings/table.js';
import { runListing, runSingle } from './listing.js';
import { openMirrorHere, requireTitleLanguage } from './offline.js';
import { pagingFrom, type PagingFlags } from './options.js';

/**
 * A reading of src/readings/table.ts as its command shows it: from the API, or with --offline from the mirror — the
 * source swapped here, once, for every command. The flags are checked before anything is read; the mirror is opened
 * when the wrapper reads the result (after -o and the output flags are checked) and closed once it is shown.
 */
export interface ReadingFlags extends PagingFlags {
  offline?: boolean | undefined;
  db?: string | undefined;
}

/** What a reading shows as: a listing's pages, or one value. */
type Shown<N extends ReadingName> = (typeof READINGS)[N] extends { kind: 'listing' } ? Listing : Resource;

export function runReading<N extends ReadingName>(ctx: Context, name: N, filters: Filters, flags: ReadingFlags = {}): Promise<Shown<N>> {
  const reading: Reading = READINGS[name];
  if (reading.kind === 'listing') return listingOf(ctx, reading, filters, flags) as Promise<Shown<N>>;
  if (reading.kind === 'single') return singleOf(ctx, reading, filters, flags) as Promise<Shown<N>>;
  throw new Error(`lk: the reading ${name} is composed: its command composes it (src/readings/overview.ts)`);
}

/** The mirror for a reading: opened in lk's process, its titles checked against --lang where the reading shows titles. */
export async function mirrorForReading(ctx: Context, reading: Reading, db: string | undefined): Promise<Database> {
  // What needs Node 22.13, said when this one has no node:sqlite: `lk search`, `lk library --offline`.
  const command = `lk ${reading.surfaces.command.join(' ')}`;
  const what = reading.kind !== 'composed' && reading.api === undefined ? command : `${command} --offline`;
  const opened = await openMirrorHere(ctx, db, what);
  // Titles come from the mirror, in the language it was synced in: --lang is that one or refused.
  if (reading.titles) await requireTitleLanguage(ctx, opened);
  return opened;
}

async function listingOf(ctx: Context, reading: ListingReading, filters: Filters, flags: ReadingFlags): Promise<Listing> {
  if (!flags.offline && reading.api !== undefined) {
    const { api } = reading;
    const spec = { endpoint: api.endpoint, view: reading.view, ...idOf(reading, filters), ...(api.followIfPaged ? { followIfPaged: true } : {}) };
    return runListing(ctx, spec, queryOf(ctx, reading, filters), reading.paged ? flags : {});
  }
  // Offline, the mirror's items paged as the server pages them (a listing it does not page, whole).
  const paging: PagingOptions = reading.paged ? pagingFrom(flags) : { all: true };
  const read = reading.mirror!;
  const now = ctx.now();
  async function* pages(): AsyncGenerator<Page> {
    const db = await mirrorForReading(ctx, reading, flags.db);
    yield* pagesOf((window) => read(db, filters, window, now), paging);
  }
  return listing(pages(), reading.view, reading.paged);
}

async function singleOf(ctx: Context, reading: SingleReading, filters: Filters, flags: ReadingFlags): Promise<Resource> {
  const shown = {
    ...(reading.view ? { view: reading.view } : {}),
    ...(reading.layout ? { layout: reading.layout } : {}),
    ...(reading.write ? { write: reading.write } : {}),
  };
  if (!flags.offline || reading.mirror === undefined) {
    return runSingle(ctx, { endpoint: reading.api.endpoint, ...idOf(reading, filters), ...shown }, queryOf(ctx, reading, filters));
  }
  const read = reading.mirror;
  return resource(async () => read(await mirrorForReading(ctx, reading, flags.db), filters), shown);
}

/** The id the endpoint's path takes (`lk library show ID`), as typed, for runListing/runSingle to check and name. */
function idOf(reading: ListingReading | SingleReading, filters: Filters): { id?: { what: string; raw: string } } {
  const what = reading.api!.id;
  return what === undefined ? {} : { id: { what, raw: filters.id ?? '' } };
}

/** The endpoint's query from the filters, in the run's language where the endpoint takes one. */
function queryOf(ctx: Context, reading: ListingReading | SingleReading, filters: Filters) {
  const api = reading.api!;
  return { ...api.query(filters), ...(api.lang === false ? {} : { lang: ctx.lang() }) };
}
