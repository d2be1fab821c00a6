import type { Command } from 'commander';
import { DATA } from '../output/shape.js';
import { addCommand, defineCommand } from './define.js';
import { DOMAIN_FLAG, OFFLINE_FLAGS, PAGING_FLAGS } from './options.js';
import { runReading } from './readings.js';

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
  async run(ctx, _out, options) {
    return runReading(ctx, 'reviews', { domain: options.domain }, options);
  },
});

export function registerReviews(program: Command): void {
  addCommand(program, reviewsCommand);
}
