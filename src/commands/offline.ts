import { MIRROR_STALE_MS, mirrorPath as defaultMirrorPath } from '../config/paths.js';
import type { Context } from '../context.js';
import type { OutputSession } from '../output/session.js';
import { UsageError } from '../util/errors.js';
import type { Page } from '../api/paginate.js';
import type { Database } from '../mirror/open.js';
import type { MirrorReader } from '../mirror/query-process.js';
import type { Listing as MirrorListing, MirrorAge, Window } from '../mirror/read.js';
import { listing, resource, type Listing, type Resource } from '../output/result.js';
import type { View } from '../output/formats/view.js';
import { pagingFrom, type PagingFlags } from './options.js';
import { dateBound, type DateValue } from './flag-values.js';

/**
 * `--offline` on the listing commands, and what `lk sync`, `lk search` and `lk sql` share: where the mirror is,
 * how old it is, and its items paged the way the server pages them. The mirror itself is src/mirror/.
 */

/** --db, else `<data folder>/<profile>.db`. */
export async function mirrorPath(ctx: Context, db: string | undefined): Promise<string> {
  if (db === '') throw new UsageError('--db needs a path');
  if (db !== undefined) return db;
  return defaultMirrorPath(ctx.env, ctx.settings.profileName);
}

/**
 * Opens the mirror read-only in a query process, for SQL a person wrote (lk sql): its queries bounded by --timeout,
 * stopped by a signal. Says on stderr how old the mirror is; `first`, the reading to start with, is sent meanwhile.
 */
export async function openMirror<T = undefined>(
  ctx: Context,
  db: string | undefined,
  what: string,
  first?: (reader: MirrorReader) => Promise<T>,
): Promise<{ reader: MirrorReader; first: Promise<T | undefined> }> {
  const path = await mirrorPath(ctx, db);
  const { openMirrorReader } = await import('../mirror/query-process.js');
  const reader = openMirrorReader(path, what, ctx.settings.timeoutSeconds());
  const asked = reader.mirrorAge();
  // Sent at once, `first` runs in the query process as soon as the age is answered, while lk says it: no wait between.
  const started = first ? first(reader) : Promise.resolve(undefined);
  started.catch(() => {}); // its failure is the caller's, once it awaits it
  const age = await asked.catch((error: unknown) => {
    reader.close();
    throw error;
  });
  await sayMirrorAge(ctx, path, age);
  return { reader, first: started };
}

/**
 * The mirror opened in lk's own process, for lk's own queries (search, --offline, lk feed, lk report): no second Node
 * to start, and no query of the user's runs there.
 */
export async function openMirrorHere(ctx: Context, db: string | undefined, what: string): Promise<Database> {
  const path = await mirrorPath(ctx, db);
  const { loadSqlite, openForReading } = await import('../mirror/open.js');
  loadSqlite(what);
  const database = openForReading(path);
  const { mirrorAge } = await import('../mirror/read.js');
  await sayMirrorAge(ctx, path, mirrorAge(database));
  return database;
}

/**
 * The mirror in lk's process for the result a run returns (search, --offline): the output flags (-o, --fields) checked
 * first, as online before the first request, and the mirror closed once the wrapper has shown the result.
 */
export async function openMirrorForResult(ctx: Context, out: OutputSession, db: string | undefined, what: string): Promise<Database> {
  await out.outputOptions();
  return openMirrorUntilShown(ctx, db, what);
}

/** The mirror in lk's process, closed once the wrapper has shown the result read from it (a document's too). */
export async function openMirrorUntilShown(ctx: Context, db: string | undefined, what: string): Promise<Database> {
  const database = await openMirrorHere(ctx, db, what);
  ctx.closeWhenDone(() => database.close());
  return database;
}

/**
 * --lang offline: the mirror holds each title in the account's language (the language the export and pages came in),
 * so that language is honoured and any other is not: refused when asked with --lang (exit 2), said once on stderr
 * when it is the `lk config` default. A mirror that does not say its language (no profile synced) is read as it is.
 */
export async function requireTitleLanguage(ctx: Context, db: Database): Promise<void> {
  const wanted = ctx.lang();
  if (wanted === undefined) return;
  const { titleLanguage } = await import('../mirror/read.js');
  const held = titleLanguage(db);
  if (held === undefined || held === wanted.toLowerCase()) return;
  const why = `the mirror holds its titles in ${held} (the account's language, as lk sync received them)`;
  if (ctx.settings.flags.lang !== undefined)
    throw new UsageError(`--lang ${wanted} with --offline: ${why}`, `Drop --offline to ask the server in ${wanted}, or leave out --lang.`);
  ctx.io.info(`lk: ${why}; the lang default ${wanted} applies online`);
}

/**
 * How old the mirror's data are, for a person at a terminal. Elsewhere (a pipe, cron, which mails whatever reaches
 * stderr) only a mirror not synced for a week is worth the line, with what to do.
 */
async function sayMirrorAge(ctx: Context, path: string, age: MirrorAge): Promise<void> {
  const stale = age.syncedAt === undefined || ctx.now() - age.syncedAt > MIRROR_STALE_MS;
  const { formatDuration } = await import('../util/units.js');
  const ago = (at: number | undefined) => (at === undefined ? 'at an unknown time' : `${formatDuration((ctx.now() - at) / 1000)} ago`);
  const hint = stale ? '; lk sync brings it up to date' : '';
  const line = `lk: from the mirror ${path}: data as of ${ago(age.snapshotAt)} (synced ${ago(age.syncedAt)})${hint}`;
  // LK_DEBUG (-v) tells every read where its data came from, as it tells every request.
  if (ctx.io.stderrIsTTY || stale) ctx.io.info(line);
  else ctx.io.debug(line);
}

type Reader = (window: Window) => MirrorListing;

/**
 * A listing of the mirror as the pages the server would have sent: --page, --limit (20), --all, --max; "Showing N of
 * TOTAL". Every page it follows comes from one statement, read as the pages are written: linear in what is shown.
 */
export async function* pagesOf(source: unknown[] | Reader, flags: PagingFlags): AsyncGenerator<Page> {
  const read: Reader = Array.isArray(source)
    ? ({ offset, limit }) => ({ items: source.slice(offset, limit < 0 ? undefined : offset + limit), total: source.length })
    : source;
  const paging = pagingFrom(flags);
  const follow = paging.all || paging.max !== undefined;
  const limit = paging.limit ?? (follow ? 100 : 20);
  let page = paging.page ?? 1;
  let remaining = paging.max ?? Number.POSITIVE_INFINITY;
  const start = (page - 1) * limit;
  // Following, the pages up to --max (whole pages, as the server serves them); else the one page asked for.
  const window = follow ? { offset: start, limit: Number.isFinite(remaining) ? Math.ceil(remaining / limit) * limit : -1 } : { offset: start, limit };
  const { items, total } = read(window);
  const iterator = items[Symbol.iterator]();
  let next = iterator.next();
  for (;;) {
    const served: unknown[] = [];
    while (served.length < limit && !next.done) {
      served.push(next.value);
      next = iterator.next();
    }
    const shown = served.slice(0, remaining);
    remaining -= shown.length;
    const hasMore = (page - 1) * limit + limit < total;
    yield { items: shown, page, hasMore, total, body: { items: served, hasMore, total }, status: 200, headers: {} };
    if (!follow || !hasMore || remaining <= 0 || next.done) return;
    page += 1;
  }
}

type OfflineListing = 'library' | 'history' | 'lists' | 'reviews' | 'notifications' | 'calendar';

interface OfflineOptions extends PagingFlags {
  db?: string;
  phase?: string;
  domain?: string;
  sort?: string;
  order?: string;
  from?: DateValue;
  to?: DateValue;
}

/**
 * The listing command answered from the mirror, with the same filters, order and output as online: its pages read
 * from the mirror as the wrapper writes them, the mirror closed once they are shown.
 */
export async function runOffline(ctx: Context, out: OutputSession, command: OfflineListing, options: OfflineOptions): Promise<Listing> {
  pagingFrom(options); // flags checked before the mirror is opened
  const now = ctx.now();
  const from = options.from === undefined ? undefined : dateBound(options.from.at(now), 'start');
  const to = options.to === undefined ? undefined : dateBound(options.to.at(now), 'end');
  if (from !== undefined && to !== undefined && from > to)
    throw new UsageError(`--from ${options.from!.raw} is after --to ${options.to!.raw}: nothing can fall in that window`);
  const views = await import('../output/wording/views.js');
  const read = await import('../mirror/read.js');
  const domain = options.domain?.toUpperCase();
  const db = await openMirrorForResult(ctx, out, options.db, `--offline`);
  await requireTitleLanguage(ctx, db);
  const paged = (source: unknown[] | Reader, view: View) => listing(pagesOf(source, options), view, true);
  switch (command) {
    case 'library':
      return paged((window) => read.libraryItems(db, { ...options, domain, phase: options.phase?.toUpperCase() }, window), views.entryView);
    case 'history':
      return paged((window) => read.historyItems(db, { domain, from, to }, window), views.historyView);
    case 'lists':
      return paged(read.tableItems(db, 'lists'), views.listView);
    case 'reviews':
      return paged(read.tableItems(db, 'reviews', { domain }), views.reviewView);
    case 'notifications':
      return paged(read.tableItems(db, 'notifications'), views.notificationView);
    case 'calendar':
      return listing(pagesOf(read.upcomingCalendar(db, { domain }, now), { all: true }), views.calendarView, false);
  }
}

/** `lk stats --offline`: the summary the last sync kept, shown in sections as online. */
export async function runOfflineStats(ctx: Context, out: OutputSession, options: { db?: string; domain?: string }): Promise<Resource> {
  const db = await openMirrorForResult(ctx, out, options.db, `--offline`);
  if (options.domain !== undefined) {
    throw new UsageError(
      '--domain with --offline: the mirror keeps the stats summary of the whole account',
      'Leave out --domain, or drop --offline to ask the server.',
    );
  }
  const { statsSnapshot } = await import('../mirror/read.js');
  const summary = statsSnapshot(db);
  if (summary === undefined) throw new UsageError('the mirror holds no stats summary (the key lacked stats:read when it synced)');
  return resource(() => Promise.resolve(summary), { layout: 'sections' });
}
