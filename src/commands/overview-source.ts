import type { Context } from '../context.js';
import type { NextSource } from '../overview/next.js';
import type { StatusSource } from '../overview/status.js';
import { mirrorPath, openMirrorHere, requireTitleLanguage } from './offline.js';

/**
 * lk next and lk status read the API, or with --offline the mirror in lk's own process (as lk report and lk feed
 * do): either way the same source, so that src/overview/ computes one answer from both.
 */
export async function withOverviewSource<T>(
  ctx: Context,
  options: { offline?: boolean | undefined; db?: string | undefined },
  what: string,
  use: (source: NextSource & StatusSource, mirrorSyncedAt: () => Promise<number | null | undefined>) => Promise<T>,
): Promise<T> {
  if (!options.offline) {
    const { apiSource } = await import('../overview/api-source.js');
    return use(apiSource(await ctx.client(), ctx.lang()), () => mirrorSyncedAt(ctx, options.db));
  }
  const db = await openMirrorHere(ctx, options.db, what);
  try {
    // Titles come from the mirror, in the language it was synced in: --lang is that one or refused, as in the listings.
    await requireTitleLanguage(ctx, db);
    const { mirrorSource } = await import('../overview/mirror-source.js');
    const { mirrorAge } = await import('../mirror/read.js');
    return await use(mirrorSource(db), async () => mirrorAge(db).syncedAt);
  } finally {
    db.close();
  }
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
