import type { Command } from 'commander';
import { DATA } from '../output/shape.js';
import { notificationView } from '../output/wording/views.js';
import { addCommand, defineCommand } from './define.js';
import { runOffline } from './offline.js';
import { OFFLINE_FLAGS, PAGING_FLAGS } from './options.js';
import { runListing } from './listing.js';
import { orMirror, REQUESTS } from './uses.js';

/** `lk notifications`. */
const notificationsCommand = defineCommand({
  name: 'notifications',
  uses: orMirror(REQUESTS),
  description: 'your notifications, newest first',
  output: DATA,
  flags: { ...OFFLINE_FLAGS, ...PAGING_FLAGS },
  examples: [
    'lk notifications',
    "lk notifications --all --json | jq '[.[] | select(.read == false)] | length'",
    '*/30 * * * *  lk notifications --limit 5 --tsv --no-header >> ~/notifications.log',
  ],
  async run(ctx, out, options) {
    if (options.offline) return runOffline(ctx, out, 'notifications', options);
    return runListing(ctx, { endpoint: 'notifications', view: notificationView }, {}, options);
  },
});

export function registerNotifications(program: Command): void {
  addCommand(program, notificationsCommand);
}
