import type { Command } from 'commander';
import { DATA } from '../output/shape.js';
import { reviewView } from '../output/wording/views.js';
import { addCommand, defineCommand } from './define.js';
import { runOffline } from './offline.js';
import { DOMAIN_FLAG, OFFLINE_FLAGS, PAGING_FLAGS } from './options.js';
import { runListing } from './listing.js';

/** `lk reviews`. */
const reviewsCommand = defineCommand({
  name: 'reviews',
  description: 'the reviews you wrote',
  output: DATA,
  flags: { ...DOMAIN_FLAG, ...OFFLINE_FLAGS, ...PAGING_FLAGS },
  examples: [
    'lk reviews --domain BOOKS',
    "lk reviews --all --json | jq -r '.[] | select(.rating >= 9) | .work.title'",
    '0 3 * * 0  lk reviews --all --csv > ~/reviews.csv',
  ],
  async run(ctx, out, options) {
    if (options.offline) return runOffline(ctx, out, 'reviews', options);
    return runListing(ctx, { endpoint: 'reviews', view: reviewView }, { domain: options.domain, lang: ctx.lang() }, options);
  },
});

export function registerReviews(program: Command): void {
  addCommand(program, reviewsCommand);
}
