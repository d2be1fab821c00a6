import type { Command } from 'commander';
import { paginate } from '../api/paginate.js';
import { renderListing } from '../output/render.js';
import { reviewView } from '../output/views.js';
import { action } from './action.js';
import { dbOption, offlineOption, runOffline } from './offline.js';
import { addPagingOptions, domainOption, examples, pagingFrom, type PagingFlags } from './options.js';

export function registerReviews(program: Command): void {
  addPagingOptions(
    program
      .command('reviews')
      .description('the reviews you wrote')
      .addOption(domainOption()).addOption(offlineOption()).addOption(dbOption()),
  )
    .addHelpText(
      'after',
      examples(
        'lk reviews --domain BOOKS',
        "lk reviews --all --json | jq -r '.[] | select(.rating >= 9) | .work.title'",
        '0 3 * * 0  lk reviews --all --csv > ~/reviews.csv',
      ),
    )
    .action(
      action<PagingFlags & { domain?: string }>(async (ctx, options) => {
        if (options.offline) return runOffline(ctx, 'reviews', options);
        const paging = pagingFrom(options);
        const output = await ctx.outputOptions();
        const client = await ctx.client();
        const query = { domain: options.domain, lang: ctx.lang() };
        await renderListing(paginate(client, '/v1/reviews', query, paging), reviewView, output, { paged: true });
      }),
    );
}
