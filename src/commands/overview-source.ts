import type { Context } from '../context.js';
import { overviewSource, type OverviewSource } from '../readings/overview.js';
import { READINGS } from '../readings/table.js';
import { mirrorPath } from './offline.js';
import { mirrorForReading } from './readings.js';

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
  const { mirrorAge } = await import('../mirror/read.js');
  return use(overviewSource({ mirror: db }), async () => mirrorAge(db).syncedAt);
}

/** The Node a mirror that is there needs, when this Node cannot read it (before 22.13); undefined otherwise. */
export async function mirrorNeedsNode(ctx: Context, db: string | undefined): Promise<string | undefined> {
  const { nodeHasSqlite } = await import('../mirror/open.js');
  if (nodeHasSqlite()) return undefined;
  const { existsSync } = await import('node:fs');
  const { MIRROR_NODE } = await import('../util/newer-node.js');
  return existsSync(await mirrorPath(ctx, db)) ? MIRROR_NODE : undefined;
}

/** Online: when the mirror was last synced, if there is one this Node can read (null when not). */
async function mirrorSyncedAt(ctx: Context, db: string | undefined): Promise<number | null | undefined> {
  const { nodeHasSqlite, openForReading } = await import('../mirror/open.js');
  const path = await mirrorPath(ctx, db);
  const { existsSync } = await import('node:fs');
  if (!nodeHasSqlite() || !existsSync(path)) return null;
  const { mirrorAge } = await import('../mirror/read.js');
  const database = openForReading(path);
  try {
    return mirrorAge(database).syncedAt;
  } finally {
    database.close();
  }
}
