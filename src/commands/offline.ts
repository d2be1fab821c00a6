import { MIRROR_STALE_MS, mirrorPath as defaultMirrorPath } from '../config/paths.js';
import type { Context } from '../context.js';
import { UsageError } from '../util/errors.js';
import type { Database } from '../mirror/open.js';
import type { MirrorReader } from '../mirror/query-process.js';
import type { MirrorAge } from '../mirror/read.js';
import { openMirrorReader } from '../mirror/query-process.js';
import { loadSqlite, openForReading } from '../mirror/open.js';
import { mirrorAge, titleLanguage } from '../mirror/read.js';
import { formatDuration } from '../util/units.js';

/**
 * The mirror as the commands open it: where it is, how old it is (said on stderr), in lk's process for the readings
 * (./readings.ts swaps a reading's source for --offline) or in a query process for lk sql. The mirror itself is
 * src/mirror/.
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
 * The mirror opened in lk's own process, for lk's readings (src/readings/: search, --offline, next, status, the feed,
 * the report, diff's side): no second Node to start, and no query of the user's runs there. It is closed once the
 * wrapper has shown the run's result (or the run failed): the run reads it while the result is shown.
 */
export async function openMirrorHere(ctx: Context, db: string | undefined, what: string): Promise<Database> {
  const path = await mirrorPath(ctx, db);
  loadSqlite(what);
  const database = openForReading(path);
  ctx.closeWhenDone(() => database.close());
  await sayMirrorAge(ctx, path, mirrorAge(database));
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
  const ago = (at: number | undefined) => (at === undefined ? 'at an unknown time' : `${formatDuration((ctx.now() - at) / 1000)} ago`);
  const hint = stale ? '; lk sync brings it up to date' : '';
  const line = `lk: from the mirror ${path}: data as of ${ago(age.snapshotAt)} (synced ${ago(age.syncedAt)})${hint}`;
  // LK_DEBUG (-v) tells every read where its data came from, as it tells every request.
  if (ctx.io.stderrIsTTY || stale) ctx.io.info(line);
  else ctx.io.debug(line);
}
