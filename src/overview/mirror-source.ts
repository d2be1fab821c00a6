import type { Database } from '../mirror/database.js';
import { tableItems } from '../mirror/read.js';
import { instantOf } from '../items/values.js';
import { hasVersion, LAST_ACTIVITY_VERSION } from '../mirror/migrations.js';
import { rankByActivity, type Candidate, type NextSource, type RankedEntries } from './next.js';
import type { StatusSource } from './status.js';
import { DOMAINS, PHASE_OF_STATUS, type Phase } from '../vocabulary.js';

/**
 * lk next and lk status answered from the mirror in lk's own process: the same items the API gave (the json
 * columns), read with the mirror's columns and indexes. An instance that sends no phase has it derived from the
 * status (docs/api.md, Statuses and phases), as online the server filters by phase itself.
 */
type ListedPhase = 'IN_PROGRESS' | 'PLANNED';

/** The statuses of a phase, in every domain (src/vocabulary.ts PHASE_OF_STATUS), each once, in the domains' order. */
const statusesOf = (phase: Phase): string[] => [
  ...new Set(DOMAINS.flatMap((domain) => Object.keys(PHASE_OF_STATUS[domain]).filter((status) => PHASE_OF_STATUS[domain][status] === phase))),
];

const PHASE_STATUSES: Record<ListedPhase, string[]> = { IN_PROGRESS: statusesOf('IN_PROGRESS'), PLANNED: statusesOf('PLANNED') };

const inPhase = (phase: ListedPhase, alias = '') =>
  `(${alias}phase = '${phase}' OR (${alias}phase IS NULL AND ${alias}status IN (${PHASE_STATUSES[phase].map((status) => `'${status}'`).join(', ')})))`;

export function mirrorSource(db: Database): NextSource & StatusSource {
  // An entry's json is read when it is shown: lk next shows 20 of what may be thousands in progress.
  const entryJson = db.prepare('SELECT json FROM entries WHERE id = ?');
  const candidate = (row: Record<string, unknown>): Candidate => {
    const id = String(row.id);
    return { id, title: row.title === null ? null : String(row.title), entry: () => JSON.parse(String(entryJson.get(id)!.json)) as unknown };
  };
  const candidates = (phase: ListedPhase, domain: string | undefined): Candidate[] =>
    db
      .prepare(`SELECT id, title FROM entries WHERE ${inPhase(phase)} AND (:domain IS NULL OR domain = :domain) ORDER BY position`)
      .all({ domain: domain ?? null })
      .map(candidate);
  return {
    inProgress: async (domain, limit) => {
      if (hasVersion(db, LAST_ACTIVITY_VERSION)) return rankedInProgress(db, domain, limit, candidate);
      // A mirror no sync has upgraded yet (read-only here): every entry's newest event sought, then sorted.
      const all = candidates('IN_PROGRESS', domain);
      return rankByActivity(all, newestEvents(db, all), limit);
    },
    lastActivity: async (entries) => newestEvents(db, entries),
    calendar: async (domain) => tableItems(db, 'calendar', { domain }),
    planned: async (domain) => {
      const where = `${inPhase('PLANNED')} AND (:domain IS NULL OR domain = :domain)`;
      const params = { domain: domain ?? null };
      const total = Number(db.prepare(`SELECT count(*) AS n FROM entries WHERE ${where}`).get(params)!.n);
      return {
        total,
        at: async (index) => {
          return candidate(
            db.prepare(`SELECT id, title FROM entries WHERE ${where} ORDER BY position LIMIT 1 OFFSET :index`).get({ ...params, index })!,
          );
        },
      };
    },
    inProgressByDomain: async () =>
      new Map(
        db
          .prepare(`SELECT domain, count(*) AS n FROM entries WHERE ${inPhase('IN_PROGRESS')} GROUP BY domain`)
          .all()
          .map((row) => [row.domain === null ? null : String(row.domain), Number(row.n)]),
      ),
    eventsBetween: async (from, to) =>
      Number(
        db.prepare('SELECT count(*) AS n FROM history WHERE date >= :from AND date <= :to').get({
          from: new Date(from).toISOString(),
          to: new Date(to).toISOString(),
        })!.n,
      ),
    latestNotifications: async (count) =>
      db
        .prepare('SELECT json FROM notifications ORDER BY position LIMIT :count')
        .all({ count })
        .map((row) => JSON.parse(String(row.json)) as unknown),
  };
}

/**
 * The entries in progress in lk next's order (rankByActivity's), read from the sync-kept last_activity along an index
 * (migration 5): the entries with a phase, and those of an instance that sends none whose status is in progress,
 * merged in order; the total counted apart.
 */
function rankedInProgress(
  db: Database,
  domain: string | undefined,
  limit: number | undefined,
  candidate: (row: Record<string, unknown>) => Candidate,
): RankedEntries {
  const ofDomain = domain === undefined ? '' : ' AND domain = :domain';
  const columns = 'SELECT id, title, last_activity, title_key FROM entries';
  const rows = db
    .prepare(
      `${columns} WHERE phase = 'IN_PROGRESS'${ofDomain}
       UNION ALL ${columns} WHERE phase IS NULL AND status IN (${PHASE_STATUSES.IN_PROGRESS.map((status) => `'${status}'`).join(', ')})${ofDomain}
       ORDER BY last_activity DESC, title_key, id LIMIT :limit`,
    )
    .all({ ...(domain === undefined ? {} : { domain }), limit: limit ?? -1 });
  const latest = new Map<string, number>();
  for (const row of rows) {
    const at = instantOf(row.last_activity);
    if (at !== undefined) latest.set(String(row.id), at);
  }
  const total = Number(
    db.prepare(`SELECT count(*) AS n FROM entries WHERE ${inPhase('IN_PROGRESS')}${ofDomain}`).get(domain === undefined ? {} : { domain })!.n,
  );
  return { candidates: rows.map(candidate), latest, total };
}

/**
 * The newest dated event of each entry: by its entry id (one seek each in history_entry_date, migration 4), or, for
 * events naming their work only (rare: looked for first), by its work.
 */
function newestEvents(db: Database, entries: readonly Candidate[]): Map<string, number> {
  const latest = new Map<string, number>();
  const ids = JSON.stringify(entries.map((entry) => entry.id));
  const rows = db
    .prepare('SELECT value AS id, (SELECT max(date) FROM history WHERE entry_id = value AND date IS NOT NULL) AS last FROM json_each(:ids)')
    .all({ ids });
  const byWork = db.prepare('SELECT 1 FROM history WHERE entry_id IS NULL AND date IS NOT NULL LIMIT 1').get()
    ? db
        .prepare(
          `SELECT e.id, max(h.date) AS last FROM entries e JOIN history h ON h.work_id = e.work_id AND h.entry_id IS NULL
           WHERE e.id IN (SELECT value FROM json_each(:ids)) AND h.date IS NOT NULL GROUP BY e.id`,
        )
        .all({ ids })
    : [];
  for (const row of [...rows, ...byWork]) {
    const at = instantOf(row.last);
    const id = String(row.id);
    if (at !== undefined && at > (latest.get(id) ?? -Infinity)) latest.set(id, at);
  }
  return latest;
}
