import { mirrorPath as defaultMirrorPath } from '../config/paths.js';
import type { Context } from '../context.js';
import type { OutputSession } from '../output/session.js';
import { UsageError } from '../util/errors.js';
import type { Page } from '../api/paginate.js';
import type { Database } from '../mirror/open.js';
import type { MirrorReader } from '../mirror/query-process.js';
import type { MirrorAge, Slice, Window } from '../mirror/read.js';
import { pagingFrom, dateBound, isoDate, type PagingFlags } from './options.js';

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

/** Opens the mirror read-only (its queries bounded by --timeout) and says on stderr how old it is. */
export async function openMirror(ctx: Context, db: string | undefined, what: string): Promise<MirrorReader> {
  const path = await mirrorPath(ctx, db);
  const { openMirrorReader } = await import('../mirror/query-process.js');
  const database = openMirrorReader(path, what, ctx.settings.timeoutSeconds());
  const age = await database.mirrorAge().catch((error: unknown) => {
    database.close();
    throw error;
  });
  await sayMirrorAge(ctx, path, age);
  return database;
}

/** The mirror opened in lk's own process, for lk's own queries (lk feed, lk report): no query of the user's runs there. */
export async function openMirrorHere(ctx: Context, db: string | undefined, what: string): Promise<Database> {
  const path = await mirrorPath(ctx, db);
  const { loadSqlite, openForReading } = await import('../mirror/open.js');
  loadSqlite(what);
  const database = openForReading(path);
  const { mirrorAge } = await import('../mirror/read.js');
  await sayMirrorAge(ctx, path, mirrorAge(database));
  return database;
}

async function sayMirrorAge(ctx: Context, path: string, age: MirrorAge): Promise<void> {
  const { formatDuration } = await import('../util/units.js');
  const ago = (at: number | undefined) => (at === undefined ? 'at an unknown time' : `${formatDuration((ctx.now() - at) / 1000)} ago`);
  ctx.io.info(`lk: from the mirror ${path}: data as of ${ago(age.snapshotAt)} (synced ${ago(age.syncedAt)})`);
}

type Reader = (window: Window) => Slice | Promise<Slice>;

/** A listing of the mirror as the pages the server would have sent: --page, --limit (20), --all, --max; "Showing N of TOTAL". */
export async function* pagesOf(source: unknown[] | Reader, flags: PagingFlags): AsyncGenerator<Page> {
  const read: Reader = Array.isArray(source)
    ? ({ offset, limit }) => ({ items: source.slice(offset, offset + limit), total: source.length })
    : source;
  const paging = pagingFrom(flags);
  const follow = paging.all || paging.max !== undefined;
  const limit = paging.limit ?? (follow ? 100 : 20);
  let page = paging.page ?? 1;
  let remaining = paging.max ?? Number.POSITIVE_INFINITY;
  for (;;) {
    const start = (page - 1) * limit;
    const { items: served, total } = await read({ offset: start, limit });
    const items = { length: total };
    const shown = served.slice(0, remaining);
    remaining -= shown.length;
    const hasMore = start + limit < items.length;
    yield { items: shown, page, hasMore, total: items.length, body: { items: served, hasMore, total: items.length }, status: 200, headers: {} };
    if (!follow || !hasMore || remaining <= 0) return;
    page += 1;
  }
}

type OfflineCommand = 'library' | 'history' | 'lists' | 'reviews' | 'notifications' | 'stats' | 'calendar';

interface OfflineOptions extends PagingFlags {
  db?: string;
  phase?: string;
  domain?: string;
  sort?: string;
  order?: string;
  from?: string;
  to?: string;
}

/** The listing command answered from the mirror, with the same filters, order and output as online. */
export async function runOffline(ctx: Context, out: OutputSession, command: OfflineCommand, options: OfflineOptions): Promise<void> {
  const output = await out.outputOptions();
  const paging = () => pagingFrom(options); // flags checked before the mirror is opened
  paging();
  const from = options.from === undefined ? undefined : dateBound(isoDate('--from', options.from), 'start');
  const to = options.to === undefined ? undefined : dateBound(isoDate('--to', options.to), 'end');
  if (from !== undefined && to !== undefined && from > to)
    throw new UsageError(`--from ${options.from} is after --to ${options.to}: nothing can fall in that window`);
  const render = await import('../output/render.js');
  const views = await import('../output/views.js');
  const domain = options.domain?.toUpperCase();
  const db = await openMirror(ctx, options.db, `--offline`);
  try {
    switch (command) {
      case 'library':
        return await render.renderListing(
          pagesOf((window) => db.libraryItems({ ...options, domain, phase: options.phase?.toUpperCase() }, window), options),
          views.entryView,
          output,
          { paged: true },
        );
      case 'history':
        return await render.renderListing(
          pagesOf((window) => db.historyItems({ domain, from, to }, window), options),
          views.historyView,
          output,
          { paged: true },
        );
      case 'lists':
        return await render.renderListing(pagesOf(await db.tableItems('lists'), options), views.listView, output, { paged: true });
      case 'reviews':
        return await render.renderListing(pagesOf(await db.tableItems('reviews', { domain }), options), views.reviewView, output, { paged: true });
      case 'notifications':
        return await render.renderListing(pagesOf(await db.tableItems('notifications'), options), views.notificationView, output, { paged: true });
      case 'calendar':
        return await render.renderListing(pagesOf(await db.upcomingCalendar({ domain }, ctx.now()), { all: true }), views.calendarView, output, {
          paged: false,
        });
      case 'stats': {
        if (domain !== undefined) {
          throw new UsageError(
            '--domain with --offline: the mirror keeps the stats summary of the whole account',
            'Leave out --domain, or drop --offline to ask the server.',
          );
        }
        const summary = await db.statsSnapshot();
        if (summary === undefined) throw new UsageError('the mirror holds no stats summary (the key lacked stats:read when it synced)');
        return await render.renderSections(summary, output);
      }
    }
  } finally {
    db.close();
  }
}
