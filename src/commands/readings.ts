import type { PagingOptions } from '../api/paginate.js';
import type { Context } from '../context.js';
import { listing, resource, type Listing, type Resource } from '../output/result.js';
import { listingPages, singleValue, sourceOf } from '../readings/engine.js';
import type { ReadingHost } from '../readings/host.js';
import { MirrorHandle, type Audience } from '../readings/mirror-handle.js';
import type { PublishedLists } from '../readings/projection.js';
import { READINGS, type Filters, type Reading, type ReadingName } from '../readings/table.js';
import { ENDPOINTS } from '../api/endpoints.js';
import { fallbackTimeZone } from '../report/time-zone.js';
import { entityId } from './flag-values.js';
import { mirrorPath, teller } from './offline.js';
import { pagingFrom, type PagingFlags } from './options.js';

/**
 * The readings of src/readings/table.ts as commands show them: the engine (src/readings/engine.ts) runs each, from
 * the API or with --offline from the mirror, given this run's host; this adapter checks the flags first and wraps the
 * answer in the command's result (a listing's pages, one value). The mirror is opened when the wrapper reads the result
 * (after -o and the output flags are checked) and closed once it is shown.
 */
export interface ReadingFlags extends PagingFlags {
  offline?: boolean | undefined;
  db?: string | undefined;
}

/**
 * A run's host for the engine: the owner's (or, lk feed --public, the public's), the run's clock, language and client,
 * the mirror at --db (else the profile's) opened on the first read and closed once the result is shown, its age said
 * on stderr. `what` names the command for the refusal a Node without node:sqlite gets.
 */
export function commandHost(
  ctx: Context,
  options: { db?: string | undefined; what: string; audience?: Audience; lists?: PublishedLists },
): ReadingHost {
  let handle: Promise<MirrorHandle> | undefined;
  let zone: string | undefined;
  const audience = options.audience ?? 'owner';
  return {
    audience,
    now: ctx.now,
    timeZone: () => (zone ??= fallbackTimeZone(ctx.env, (line) => ctx.io.warn(line))),
    mirror: () =>
      (handle ??= mirrorPath(ctx, options.db).then((path) => {
        const opened = new MirrorHandle(path, audience, options.what, options.lists);
        ctx.closeWhenDone(() => opened.close());
        return opened;
      })),
    api: () => ctx.client(),
    language: () => ({ wanted: ctx.lang(), asked: ctx.settings.flags.lang !== undefined }),
    tell: teller(ctx),
  };
}

/** The command's name for a reading, as a Node without node:sqlite is told it (`lk search`, `lk library --offline`). */
export function readingCommand(reading: Reading, offline: boolean): string {
  const command = `lk ${reading.surfaces.command.join(' ')}`;
  const mirrorOnly = reading.kind !== 'composed' && reading.api === undefined;
  return mirrorOnly || !offline ? command : `${command} --offline`;
}

/** What a reading shows as: a listing's pages, or one value. */
type Shown<N extends ReadingName> = (typeof READINGS)[N] extends { kind: 'listing' } ? Listing : Resource;

export async function runReading<N extends ReadingName>(ctx: Context, name: N, filters: Filters, flags: ReadingFlags = {}): Promise<Shown<N>> {
  const reading: Reading = READINGS[name];
  const offline = Boolean(flags.offline);
  const host = commandHost(ctx, { db: flags.db, what: readingCommand(reading, offline) });
  // The id the endpoint's path takes (`lk library show ID`), checked before any request.
  const checked = reading.kind !== 'composed' && reading.api?.id !== undefined ? { ...filters, id: checkedId(reading.api.id, filters.id) } : filters;
  // Online, the key and the instance are checked now (a missing key said before anything is written).
  if (sourceOf(host, reading, offline) === 'api') await host.api!();
  if (reading.kind === 'listing') {
    // Checked now, before the wrapper reads: --page, --limit, --all, --max.
    const paging: PagingOptions = pagingFrom(reading.paged ? flags : {});
    const paged = reading.api && !offline ? ENDPOINTS[reading.api.endpoint].paged : reading.paged;
    return listing(listingPages(host, name, checked, paging, offline), reading.view, paged) as Shown<N>;
  }
  if (reading.kind === 'single') {
    const shown = {
      ...(reading.view ? { view: reading.view } : {}),
      ...(reading.layout ? { layout: reading.layout } : {}),
      ...(reading.write ? { write: reading.write } : {}),
    };
    return resource(() => singleValue(host, name, checked, offline), shown) as Shown<N>;
  }
  throw new Error(`lk: the reading ${name} is composed: its command composes it (src/readings/composed.ts)`);
}

/** Checked before any request; encoded by the engine. */
function checkedId(what: string, raw: string | undefined): string {
  return entityId(what.replace(/^library /, ''), raw ?? '');
}
