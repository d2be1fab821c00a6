import type { ApiReader, Query } from '../api/client.js';
import { pathOf } from '../api/endpoints.js';
import { isEnvelope, paginate } from '../api/paginate.js';
import { UnexpectedResponseError } from '../util/errors.js';
import { entryDomainOf, entryIdOf, entryTitleOf, entryWorkIdOf, ownerOf } from '../items/entry.js';
import { instantOf } from '../items/values.js';
import { rankByActivity, type Candidate, type NextSource } from './next.js';
import type { StatusSource } from './status.js';
import { allSettledThenFirstError } from '../util/settle.js';

const PAGE = 100;

/**
 * lk next and lk status answered by the API, in as few requests as the answer allows (each counts against the
 * account's per-minute budget): the entries in progress in pages of 100, the calendar once, counts read from a
 * listing's `total` with `limit=1`, and the newest event of each entry from GET /v1/history newest first, page after
 * page only while entries remain unseen, or from each remaining entry's own history when that costs fewer requests.
 */
export function apiSource(client: ApiReader, lang: string | undefined): NextSource & StatusSource {
  const collect = async (path: string, query: Query) => {
    const items: unknown[] = [];
    for await (const page of paginate(client, path, { ...query, lang }, { all: true })) items.push(...page.items);
    return items;
  };
  const candidate = (entry: unknown): Candidate => ({ id: entryIdOf(entry) ?? '', title: entryTitleOf(entry), entry: () => entry });
  const envelope = async (path: string, query: Query) => {
    const body = (await client.get(path, { ...query, lang })).json;
    if (!isEnvelope(body)) throw new UnexpectedResponseError(`unexpected response from ${path}: expected the envelope {items, hasMore, total}`);
    return body;
  };
  const totalOf = async (path: string, query: Query) => {
    const body = await envelope(path, { ...query, limit: 1 });
    if (typeof body.total !== 'number') throw new UnexpectedResponseError(`unexpected response from ${path}: the envelope has no total`);
    return body;
  };
  return {
    inProgress: async (domain, limit) => {
      const candidates = (await collect(pathOf('library'), { phase: 'IN_PROGRESS', domain })).map(candidate);
      return rankByActivity(candidates, await newestEvents(candidates, domain, { envelope, collect }), limit);
    },
    inProgressByDomain: async () => {
      const counts = new Map<string | null, number>();
      for (const entry of await collect(pathOf('library'), { phase: 'IN_PROGRESS' })) {
        const domain = entryDomainOf(entry);
        counts.set(domain, (counts.get(domain) ?? 0) + 1);
      }
      return counts;
    },
    calendar: async (domain) => {
      const items: unknown[] = [];
      for await (const page of paginate(client, pathOf('calendar'), { domain, lang }, { followIfPaged: true })) items.push(...page.items);
      return items;
    },
    planned: async (domain) => {
      const query = { phase: 'PLANNED', domain };
      const first = await totalOf(pathOf('library'), query);
      return {
        total: first.total!,
        at: async (index) => {
          const entry = index === 0 ? first.items[0] : (await envelope(pathOf('library'), { ...query, limit: 1, page: index + 1 })).items[0];
          if (entry === undefined)
            throw new UnexpectedResponseError(`unexpected response from /v1/library: no entry at ${index + 1} of ${first.total}`);
          return candidate(entry);
        },
      };
    },
    lastActivity: (entries, domain) => newestEvents(entries, domain, { envelope, collect }),
    eventsBetween: async (from, to) => (await totalOf(pathOf('history'), { from: iso(from), to: iso(to) })).total!,
    latestNotifications: async (count) => (await envelope(pathOf('notifications'), { limit: count })).items.slice(0, count),
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

interface Reads {
  envelope(path: string, query: Query): Promise<{ items: unknown[]; hasMore: boolean; total?: number }>;
  collect(path: string, query: Query): Promise<unknown[]>;
}

/**
 * Newest first, the first event of an entry in GET /v1/history is its newest dated one. Paging stops once every entry
 * has been seen, or as soon as the entries still unseen are fewer than the pages left: each is then asked for its own
 * history (one request each, most often), which also finds the entries with no dated event at all.
 */
async function newestEvents(entries: readonly Candidate[], domain: string | undefined, reads: Reads): Promise<Map<string, number>> {
  const latest = new Map<string, number>();
  const unseen = new Set(entries.map((entry) => entry.id));
  // An event that names its work only (no entry id) belongs to the entries of that work.
  const byWork = new Map<string, string[]>();
  for (const entry of entries) {
    const work = entryWorkIdOf(entry.entry());
    if (work !== null) byWork.set(work, [...(byWork.get(work) ?? []), entry.id]);
  }
  // Before the first page the number of pages is unknown: read it unless one entry alone is wanted (lk next --random).
  let pagesLeft = unseen.size > 1 ? 0 : Number.POSITIVE_INFINITY;
  for (let page = 1; unseen.size > 0 && unseen.size >= pagesLeft; page += 1) {
    const body = await reads.envelope(pathOf('history'), { domain, page, limit: PAGE });
    for (const event of body.items) {
      const at = instantOf((event as { date?: unknown } | null)?.date);
      if (at === undefined) continue;
      const { entryId, workId } = ownerOf(event);
      for (const id of entryId !== null ? [entryId] : workId !== null ? (byWork.get(workId) ?? []) : []) {
        if (!unseen.has(id)) continue;
        unseen.delete(id);
        latest.set(id, at);
      }
    }
    // The whole history read: the entries not in it have no dated event.
    if (!body.hasMore) return latest;
    pagesLeft = typeof body.total === 'number' ? Math.ceil(body.total / PAGE) - page : Number.POSITIVE_INFINITY;
  }
  const remaining = [...unseen];
  const worker = async () => {
    try {
      for (let id = remaining.shift(); id !== undefined; id = remaining.shift()) {
        const events = await reads.collect(pathOf('entryHistory', id), {});
        const dates = events.map((event) => instantOf((event as { date?: unknown } | null)?.date)).filter((at) => at !== undefined);
        if (dates.length > 0) latest.set(id, Math.max(...dates));
      }
    } catch (error) {
      remaining.length = 0; // one failed: the others take no new entry, and the run ends once they are done
      throw error;
    }
  };
  await allSettledThenFirstError(Array.from({ length: Math.min(4, remaining.length) }, worker));
  return latest;
}
