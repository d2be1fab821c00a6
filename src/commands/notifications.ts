import type { Command } from 'commander';
import { notificationView } from '../output/views.js';
import { action } from './action.js';
import { dbOption, offlineOption, runOffline } from './offline.js';
import { addPagingOptions, examples, type PagingFlags } from './options.js';
import { runListing } from './listing.js';
import type { Context } from '../context.js';

export function registerNotifications(program: Command): void {
  addPagingOptions(program.command('notifications').description('your notifications, newest first').addOption(offlineOption()).addOption(dbOption()))
    .addHelpText(
      'after',
      examples(
        'lk notifications',
        "lk notifications --all --json | jq '[.[] | select(.read == false)] | length'",
        '*/30 * * * *  lk notifications --limit 5 --tsv --no-header >> ~/notifications.log',
      ),
    )
    .action(action(run));
}

/** `lk notifications`. */
export async function run(ctx: Context, options: PagingFlags): Promise<void> {
  if (options.offline) return runOffline(ctx, 'notifications', options);
  await runListing(ctx, { endpoint: 'notifications', view: notificationView }, {}, options);
}
