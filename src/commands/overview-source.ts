import type { Context } from '../context.js';
import { overviewSource, type OverviewSource } from '../readings/overview.js';
import { READINGS } from '../readings/table.js';
import { mirrorPath } from './offline.js';
import { mirrorForReading } from './readings.js';
import { mirrorAge } from '../mirror/read.js';
import { nodeHasSqlite, openForReading } from '../mirror/open.js';
import { existsSync } from 'node:fs';
import { MIRROR_NODE } from '../util/newer-node.js';

/**
 * lk next and lk status read the API, or with --offline the mirror in lk's own process (as lk report and lk feed
 * do): either way one source (src/readings/overview.ts), so that one composition answers from both. The mirror is
 * closed once the result is shown.
 */
export async function withOverviewSource<T>(
  ctx: Context,
  options: { offline?: boolean | undefined; db?: string | undefined },
  reading: 'next' | 'status',
  use: (source: OverviewSource, mirrorSyncedAt: () => Promise<number | null | undefined>) => Promise<T>,
): Promise<T> {
  if (!options.offline) return use(overviewSource({ api: await ctx.client(), lang: ctx.lang() }), () => mirrorSyncedAt(ctx, options.db));
  const db = await mirrorForReading(ctx, READINGS[reading], options.db);
  return use(overviewSource({ mirror: db }), async () => mirrorAge(db).syncedAt);
}

/** The Node a mirror that is there needs, when this Node cannot read it (before 22.13); undefined otherwise. */
export async function mirrorNeedsNode(ctx: Context, db: string | undefined): Promise<string | undefined> {
  if (nodeHasSqlite()) return undefined;
  return existsSync(await mirrorPath(ctx, db)) ? MIRROR_NODE : undefined;
}

/** Online: when the mirror was last synced, if there is one this Node can read (null when not). */
async function mirrorSyncedAt(ctx: Context, db: string | undefined): Promise<number | null | undefined> {
  const path = await mirrorPath(ctx, db);
  if (!nodeHasSqlite() || !existsSync(path)) return null;
  const database = openForReading(path);
  try {
    return mirrorAge(database).syncedAt;
  } finally {
    database.close();
  }
}
