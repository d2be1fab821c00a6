import { flag, type Flag, type OptionsOf } from './flags.js';
import type { PagingOptions } from '../api/paginate.js';
import { UsageError } from '../util/errors.js';
import type { Domain, Phase } from '../vocabulary.js';
import { FILTERS, type ListingFilter } from '../readings/filters.js';
import type { DateValue } from './flag-values.js';

/** The value a filter's flag hands the run. */
interface FilterValues {
  domain: Domain;
  phase: Phase;
  from: DateValue;
  to: DateValue;
}

/**
 * A listing filter's flag, made from its one declaration (src/readings/filters.ts): a choice in any case, or a date
 * in every form the command line reads (7d, today…).
 */
export function filterFlag<N extends ListingFilter>(name: N): Flag<FilterValues[N] | undefined> {
  const declared = FILTERS[name];
  const spec = `--${name} <${declared.placeholder}>` as const;
  if (declared.values === 'choice') return flag.choice(spec, declared.keeps, declared.choices) as Flag<FilterValues[N] | undefined>;
  const forms = declared.edge === 'start' ? 'YYYY-MM-DD, ISO 8601 (local time without a zone), 7d, 2w, 12h, today, yesterday' : 'in the same forms';
  return flag.date(spec, `${declared.keeps}${declared.edge === 'start' ? ': ' : ', '}${forms}`, declared.edge) as Flag<FilterValues[N] | undefined>;
}

/**
 * The flag groups the commands share, each declared once and spread into a command's flags (`...PAGING_FLAGS`). What
 * a value may be is ./flag-values.ts; how help is laid out, ./help-layout.ts; the ids Tab offers, src/completion.
 */

/** --domain: one of the four domains. */
export const DOMAIN_FLAG = { domain: filterFlag('domain') };

/** --phase: one of the four phases, in any case (lk library, lk search: the same values, the same refusal). */
export const PHASE_FLAG = { phase: filterFlag('phase') };

/** --from and --to: a window of dates (lk history). */
export const WINDOW_FLAGS = { from: filterFlag('from'), to: filterFlag('to') };

/** -o FILE: on every command that prints data (docs/output.md), with export's guarantees (src/util/output-file.ts). */
export const OUTPUT_FLAG = { output: flag.text('-o, --output <file>', 'write the output to this file, whole or not at all (0600 when new)') };

/** --page, --limit, --all, --max (and -o): on every command whose response is an envelope. */
export const PAGING_FLAGS = {
  ...OUTPUT_FLAG,
  page: flag.count('--page <n>', 'page to show, from 1', 1),
  limit: flag.count('--limit <n>', 'items per page, 1 to 100 (default 20; 100 with --all)', 1, 100),
  all: flag.toggle('--all', 'every item, following pages to the end (streams as pages arrive)'),
  max: flag.count('--max <n>', 'stop after N items', 1),
};

/** The paging flags as commander hands them over. */
export type PagingFlags = Partial<OptionsOf<typeof PAGING_FLAGS>>;

/** --db FILE: the mirror to read (lk sync, search, sql and --offline). */
export const DB_FLAG = { db: flag.text('--db <file>', 'the mirror file (default: <data folder>/<profile>.db; see lk sync --help)') };

/** --offline (the reading's mirror source, swapped in by src/commands/readings.ts) and --db: on every listing the mirror keeps. */
export const OFFLINE_FLAGS = {
  offline: flag.toggle('--offline', 'answer from the local mirror (lk sync): no key, no request'),
  ...DB_FLAG,
};

export function pagingFrom(options: PagingFlags): PagingOptions {
  if (options.all && options.page !== undefined) {
    throw new UsageError(
      '--all reads every page from the first: it does not combine with --page',
      'For one page: --page N (with --limit); for everything: --all.',
    );
  }
  return { page: options.page, limit: options.limit, all: Boolean(options.all), max: options.max };
}
