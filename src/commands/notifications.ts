import type { Command } from 'commander';
import { DATA } from '../output/shape.js';
import { addCommand, defineCommand } from './define.js';
import { OFFLINE_FLAGS, PAGING_FLAGS } from './options.js';
import { runReading } from './readings.js';
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
  async run(ctx, _out, options) {
    return runReading(ctx, 'notifications', {}, options);
  },
});

export function registerNotifications(program: Command): void {
  addCommand(program, notificationsCommand);
}
