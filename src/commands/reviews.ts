import type { Command } from 'commander';
import { reviewView } from '../output/views.js';
import { action } from './action.js';
import { dbOption, offlineOption, runOffline } from './offline.js';
import { addPagingOptions, domainOption, examples, type PagingFlags } from './options.js';
import { runListing } from './listing.js';
import type { Context } from '../context.js';

export function registerReviews(program: Command): void {
  addPagingOptions(
    program.command('reviews').description('the reviews you wrote').addOption(domainOption()).addOption(offlineOption()).addOption(dbOption()),
  )
    .addHelpText(
      'after',
      examples(
        'lk reviews --domain BOOKS',
        "lk reviews --all --json | jq -r '.[] | select(.rating >= 9) | .work.title'",
        '0 3 * * 0  lk reviews --all --csv > ~/reviews.csv',
      ),
    )
    .action(action(run));
}

/** `lk reviews`. */
export async function run(ctx: Context, options: PagingFlags & { domain?: string }): Promise<void> {
  if (options.offline) return runOffline(ctx, 'reviews', options);
  await runListing(ctx, { endpoint: 'reviews', view: reviewView }, { domain: options.domain, lang: ctx.lang() }, options);
}
