import { mirrorPath as defaultMirrorPath } from '../config/paths.js';
import type { Context } from '../context.js';
import { UsageError } from '../util/errors.js';
import type { MirrorReader } from '../mirror/query-process.js';
import { openMirrorReader } from '../mirror/query-process.js';
import { sayMirrorAge, type Teller } from '../readings/host.js';

/**
 * The mirror as the commands find it: where it is, and for lk sql a query process to read it in, its age said on
 * stderr. lk's own readings open it through the engine (./readings.ts commandHost). The mirror itself is src/mirror/.
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
  sayMirrorAge(teller(ctx), ctx.now(), path, age);
  return { reader, first: started };
}

/** Where a command says how old the mirror is: its stderr. */
export function teller(ctx: Context): Teller {
  return { info: (line) => ctx.io.info(line), debug: (line) => ctx.io.debug(line), atTerminal: ctx.io.stderrIsTTY };
}
