import type { Command } from 'commander';
import { UsageError } from '../util/errors.js';
import { historyView } from '../output/views.js';
import { action } from './action.js';
import { dbOption, offlineOption, runOffline } from './offline.js';
import { addPagingOptions, dateBound, domainOption, examples, isoDate } from './options.js';
import { runListing } from './listing.js';
import type { Context } from '../context.js';

interface HistoryOptions {
  from?: string;
  to?: string;
  domain?: string;
  page?: string;
  limit?: string;
  all?: boolean;
  max?: string;
  offline?: boolean;
}

export function registerHistory(program: Command): void {
  addPagingOptions(
    program
      .command('history')
      .description('what you watched, played, read and listened to, newest first')
      .option('--from <date>', 'from this day or moment: YYYY-MM-DD, ISO 8601 (local time without a zone), 7d, 2w, 12h, today, yesterday')
      .option('--to <date>', 'up to this day (inclusive) or moment, in the same forms')
      .addOption(domainOption())
      .addOption(offlineOption())
      .addOption(dbOption()),
  )
    .addHelpText(
      'after',
      examples(
        'lk history --from 2026-01-01 --to 2026-01-31',
        "lk history --all --json | jq 'group_by(.kind) | map({kind: .[0].kind, n: length})'",
        'lk history --from yesterday --domain books',
        '0 6 * * 1  lk history --from 7d --csv > ~/weekly-history.csv',
      ),
    )
    .action(action(run));
}

/** `lk history`: events across the library in a from/to window, newest first. */
export async function run(ctx: Context, options: HistoryOptions): Promise<void> {
  if (options.offline) return runOffline(ctx, 'history', options);
  const now = ctx.now();
  const from = options.from === undefined ? undefined : isoDate('--from', options.from, { edge: 'start', now });
  const to = options.to === undefined ? undefined : isoDate('--to', options.to, { edge: 'end', now });
  // The server refuses an empty window (400); say so before asking it. A --to day includes that whole day.
  if (from !== undefined && to !== undefined && dateBound(from, 'start') > dateBound(to, 'end')) {
    throw new UsageError(`--from ${from} is after --to ${to}: nothing can fall in that window`);
  }
  await runListing(ctx, { endpoint: 'history', view: historyView }, { from, to, domain: options.domain, lang: ctx.lang() }, options);
}
