import type { Database } from '../mirror/database.js';
import type { Candidate, NextSource } from './next.js';
import type { StatusSource } from './status.js';

/**
 * lk next and lk status answered from the mirror in lk's own process: the same items the API gave (the json
 * columns), read with the mirror's columns and indexes. An instance that sends no phase has it derived from the
 * status (SPEC.md §3), as online the server filters by phase itself.
 */
const PHASE_STATUSES = {
  IN_PROGRESS: ['WATCHING', 'PLAYING', 'READING'],
  PLANNED: ['PLANNED', 'BACKLOG', 'TO_READ', 'TO_LISTEN'],
} as const;

const inPhase = (phase: keyof typeof PHASE_STATUSES, alias = '') =>
  `(${alias}phase = '${phase}' OR (${alias}phase IS NULL AND ${alias}status IN (${PHASE_STATUSES[phase].map((status) => `'${status}'`).join(', ')})))`;

export function mirrorSource(db: Database): NextSource & StatusSource {
  const json = (text: unknown) => () => JSON.parse(String(text)) as unknown;
  const candidates = (phase: keyof typeof PHASE_STATUSES, domain: string | undefined): Candidate[] =>
    db
      .prepare(`SELECT id, title, json FROM entries WHERE ${inPhase(phase)} AND (:domain IS NULL OR domain = :domain) ORDER BY position`)
      .all({ domain: domain ?? null })
      .map((row) => ({ id: String(row.id), title: row.title === null ? null : String(row.title), entry: json(row.json) }));
  const calendar = (domain: string | undefined) =>
    db
      .prepare(
        `SELECT c.json FROM calendar c LEFT JOIN entries e ON e.id = c.entry_id LEFT JOIN works w ON w.id = coalesce(c.work_id, e.work_id)
         WHERE :domain IS NULL OR coalesce(w.domain, e.domain) = :domain ORDER BY c.position`,
      )
      .all({ domain: domain ?? null })
      .map((row) => JSON.parse(String(row.json)) as unknown);
  return {
    inProgress: async (domain) => candidates('IN_PROGRESS', domain),
    lastActivity: async (entries) => newestEvents(db, entries),
    calendar: async (domain) => calendar(domain),
    planned: async (domain) => {
      const where = `${inPhase('PLANNED')} AND (:domain IS NULL OR domain = :domain)`;
      const params = { domain: domain ?? null };
      const total = Number(db.prepare(`SELECT count(*) AS n FROM entries WHERE ${where}`).get(params)!.n);
      return {
        total,
        at: async (index) => {
          const row = db
            .prepare(`SELECT id, title, json FROM entries WHERE ${where} ORDER BY position LIMIT 1 OFFSET :index`)
            .get({ ...params, index })!;
          return { id: String(row.id), title: row.title === null ? null : String(row.title), entry: json(row.json) };
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

/** The newest dated event of each entry: by its entry id, or (an event naming its work only) its work's. */
function newestEvents(db: Database, entries: readonly Candidate[]): Map<string, number> {
  const latest = new Map<string, number>();
  const rows = db
    .prepare(
      `SELECT h.entry_id AS id, max(h.date) AS last FROM history h
         WHERE h.entry_id IN (SELECT value FROM json_each(:ids)) AND h.date IS NOT NULL GROUP BY h.entry_id
       UNION ALL
       SELECT e.id, max(h.date) FROM entries e JOIN history h ON h.work_id = e.work_id AND h.entry_id IS NULL
         WHERE e.id IN (SELECT value FROM json_each(:ids)) AND h.date IS NOT NULL GROUP BY e.id`,
    )
    .all({ ids: JSON.stringify(entries.map((entry) => entry.id)) });
  for (const row of rows) {
    const at = Date.parse(String(row.last));
    const id = String(row.id);
    if (!Number.isNaN(at) && at > (latest.get(id) ?? -Infinity)) latest.set(id, at);
  }
  return latest;
}
