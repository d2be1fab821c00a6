import type { Command } from 'commander';
import { paginate } from '../api/paginate.js';
import { renderListing } from '../output/render.js';
import { notificationView } from '../output/views.js';
import { action } from './action.js';
import { dbOption, offlineOption, runOffline } from './offline.js';
import { addPagingOptions, examples, pagingFrom, type PagingFlags } from './options.js';

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
    .action(
      action<PagingFlags>(async (ctx, options) => {
        if (options.offline) return runOffline(ctx, 'notifications', options);
        const paging = pagingFrom(options);
        const output = await ctx.outputOptions();
        const client = await ctx.client();
        await renderListing(paginate(client, '/v1/notifications', {}, paging), notificationView, output, { paged: true });
      }),
    );
}
