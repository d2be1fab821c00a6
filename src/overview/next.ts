import { airsAtOf, entryDomainOf, entryIdOf, entryTitleOf, entryWorkIdOf, episodesLeft, ownerOf } from '../items/entry.js';
import { titleKey } from '../items/values.js';
import { seededIndex } from './seed.js';
import { allSettledThenFirstError } from '../util/settle.js';

/** One entry of `lk next`, as --json prints it (docs/next-status.md). */
export interface NextItem {
  id: string;
  title: string | null;
  domain: string | null;
  /** The newest dated history event of the entry, ISO 8601; null when it has none. */
  lastActivity: string | null;
  /** Shows: aired episodes not yet seen (the calendar's count, else its progress); null for the rest. */
  episodesBehind: number | null;
  /** Shows in the calendar: when the next episode airs, ISO 8601. */
  nextAiring: string | null;
  /** The entry as the API gives it. */
  entry: unknown;
}

/** An entry as a source hands it over: its id and title for the order, the entry itself read only when shown. */
export interface Candidate {
  id: string;
  title: string | null;
  entry: () => unknown;
}

/** The entries in progress in lk next's order, as many as asked for, each with its newest dated event (ms) where it has one. */
export interface RankedEntries {
  candidates: Candidate[];
  latest: Map<string, number>;
  /** The entries in progress in all. */
  total: number;
}

/** Where the answers come from: the API (api-source.ts) or the mirror (mirror-source.ts), the same answer from both. */
export interface NextSource {
  /** The entries in progress (of one domain), most recently active first (rankByActivity's order), at most `limit`. */
  inProgress(domain: string | undefined, limit: number | undefined): Promise<RankedEntries>;
  /** The newest dated event of each of these entries (ms), where it has one. */
  lastActivity(entries: readonly Candidate[], domain: string | undefined): Promise<Map<string, number>>;
  /** The calendar's items (upcoming episodes of followed shows). */
  calendar(domain: string | undefined): Promise<unknown[]>;
  /** How many PLANNED entries there are, and the one at an index of the server's library order. */
  planned(domain: string | undefined): Promise<{ total: number; at(index: number): Promise<Candidate> }>;
}

/** How many entries lk next lists without --limit or --all (and lk serve's /next.json, its offline bytes). */
export const DEFAULT_NEXT_LIMIT = 20;

export interface NextOptions {
  domain?: string | undefined;
  /** At most this many; undefined for all. */
  limit?: number | undefined;
  now: number;
}

/** `lk next`: entries in progress, most recently active first; those with no dated event after them, by title. */
export async function nextUp(source: NextSource, options: NextOptions): Promise<{ items: NextItem[]; total: number }> {
  const [ranked, calendar] = await allSettledThenFirstError([source.inProgress(options.domain, options.limit), source.calendar(options.domain)]);
  const shows = showsOf(calendar, options.now);
  return { items: ranked.candidates.map((candidate) => itemOf(candidate, ranked.latest.get(candidate.id), shows)), total: ranked.total };
}

/**
 * lk next's order, for a source that has every entry in progress and their newest events at hand: most recently
 * active first, those with no dated event last; ties by title (case and accents aside), then id. The mirror reads the
 * same order from its index (src/mirror/entry-activity.ts).
 */
export function rankByActivity(candidates: readonly Candidate[], latest: Map<string, number>, limit: number | undefined): RankedEntries {
  const ordered = [...candidates].sort(byActivityThenTitle(latest));
  return { candidates: limit === undefined ? ordered : ordered.slice(0, limit), latest, total: candidates.length };
}

/** `lk next --random`: one PLANNED entry, uniformly; the same for the same seed and library. Undefined when none. */
export async function randomPlanned(
  source: NextSource,
  options: { domain?: string | undefined; seed?: number | undefined; now: number; random: (total: number) => number },
): Promise<NextItem | undefined> {
  const planned = await source.planned(options.domain);
  if (planned.total === 0) return undefined;
  const index = options.seed === undefined ? options.random(planned.total) : seededIndex(options.seed, planned.total);
  const candidate = await planned.at(index);
  const [latest, calendar] = await allSettledThenFirstError([source.lastActivity([candidate], options.domain), source.calendar(options.domain)]);
  return itemOf(candidate, latest.get(candidate.id), showsOf(calendar, options.now));
}

function byActivityThenTitle(latest: Map<string, number>) {
  const keys = new Map<string, string>();
  const keyOf = (candidate: Candidate) => {
    let key = keys.get(candidate.id);
    if (key === undefined) keys.set(candidate.id, (key = titleKey(candidate.title) ?? ''));
    return key;
  };
  return (a: Candidate, b: Candidate): number => {
    const left = latest.get(a.id) ?? -Infinity;
    const right = latest.get(b.id) ?? -Infinity;
    if (left !== right) return right - left;
    const ka = keyOf(a);
    const kb = keyOf(b);
    if (ka !== kb) return ka < kb ? -1 : 1;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
}

interface Show {
  episodesBehind: number | null;
  nextAiring: number | undefined;
}

/** The calendar per show, found by entry id and by work id: what it says is behind, and the next episode from now. */
function showsOf(calendar: unknown[], now: number): Map<string, Show> {
  const shows = new Map<string, Show>();
  for (const item of calendar) {
    const { entryId, workId } = ownerOf(item);
    const behind = (item as { episodesBehind?: unknown } | null)?.episodesBehind;
    const airsAt = airsAtOf(item);
    const upcoming = airsAt !== undefined && airsAt >= now ? airsAt : undefined;
    for (const key of [entryId && `e:${entryId}`, workId && `w:${workId}`]) {
      if (!key) continue;
      const show = shows.get(key) ?? { episodesBehind: null, nextAiring: undefined };
      if (show.episodesBehind === null && typeof behind === 'number') show.episodesBehind = behind;
      if (upcoming !== undefined && (show.nextAiring === undefined || upcoming < show.nextAiring)) show.nextAiring = upcoming;
      shows.set(key, show);
    }
  }
  return shows;
}

function itemOf(candidate: Candidate, latest: number | undefined, shows: Map<string, Show>): NextItem {
  const entry = candidate.entry();
  const workId = entryWorkIdOf(entry);
  const show = shows.get(`e:${candidate.id}`) ?? (workId === null ? undefined : shows.get(`w:${workId}`));
  return {
    id: entryIdOf(entry) ?? candidate.id,
    title: entryTitleOf(entry),
    domain: entryDomainOf(entry),
    lastActivity: latest === undefined ? null : new Date(latest).toISOString(),
    episodesBehind: show?.episodesBehind ?? episodesLeft((entry as { progress?: unknown } | null)?.progress),
    nextAiring: show?.nextAiring === undefined ? null : new Date(show.nextAiring).toISOString(),
    entry,
  };
}
