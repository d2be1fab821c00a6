import type { Database } from '../mirror/database.js';
import { tableItems } from '../mirror/read.js';
import { instantOf } from '../items/values.js';
import type { Candidate, NextSource } from './next.js';
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
    inProgress: async (domain) => candidates('IN_PROGRESS', domain),
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
    inProgressDomains: async () =>
      db
        .prepare(`SELECT domain FROM entries WHERE ${inPhase('IN_PROGRESS')}`)
        .all()
        .map((row) => (row.domain === null ? null : String(row.domain))),
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
