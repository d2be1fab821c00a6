import type { CompleteRequest, CompleteResult } from '@modelcontextprotocol/server';
import { DOMAINS } from '../api/vocabulary.js';
import type { Database } from '../mirror/database.js';
import type { McpMirror } from './mirror.js';

type CompleteParams = CompleteRequest['params'];

/**
 * completion/complete for lk's resource templates and prompt arguments: an entry's id by the start of its title (case
 * and accents ignored; its original title too) or of its id, a year among those with dated history, a domain. At most
 * MOST values, with `total` and `hasMore` saying how many matched.
 */

const MOST = 100;

/** Lower case, accents taken off: "Amélie" and "amelie" start alike. */
const folded = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

export function completion(matches: string[]): CompleteResult {
  return { completion: { values: matches.slice(0, MOST), total: matches.length, hasMore: matches.length > MOST } };
}

/** Entry ids whose title, original title or id starts with `typed`, in title order. */
export function entryIds(db: Database, typed: string): string[] {
  const start = folded(typed);
  const rows = db
    .prepare(
      `SELECT e.id, coalesce(w.title, e.title) AS title, w.original_title AS original
       FROM entries e LEFT JOIN works w ON w.id = e.work_id ORDER BY coalesce(e.title_key, w.title, e.title), e.position`,
    )
    .all();
  return rows
    .filter((row) => [row.id, row.title, row.original].some((text) => typeof text === 'string' && folded(text).startsWith(start)))
    .map((row) => String(row.id));
}

/** The years with dated history (as lk report reviews them), newest first, that start with `typed`. */
export function historyYears(db: Database, typed: string): string[] {
  return db
    .prepare('SELECT DISTINCT substr(date, 1, 4) AS year FROM history WHERE date IS NOT NULL ORDER BY year DESC')
    .all()
    .map((row) => String(row.year))
    .filter((year) => /^\d{4}$/.test(year) && year.startsWith(typed));
}

function domains(typed: string): string[] {
  return DOMAINS.filter((domain) => domain.startsWith(typed.toUpperCase()));
}

/** What completion/complete answers for a template's or a prompt's argument; nothing for any other. */
export function complete(params: CompleteParams, mirror: McpMirror): CompleteResult {
  const { ref, argument } = params;
  const typed = argument.value;
  const years = () => completion(mirror.read((db) => historyYears(db, typed)));
  if (ref.type === 'ref/resource') {
    if (ref.uri === 'lk://entry/{id}' && argument.name === 'id') return completion(mirror.read((db) => entryIds(db, typed)));
    if (ref.uri === 'lk://report/{year}' && argument.name === 'year') return years();
  } else if (argument.name === 'year') return years();
  else if (argument.name === 'domain') return completion(domains(typed));
  return completion([]);
}
