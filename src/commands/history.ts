import type { Command } from 'commander';
import { DATA } from '../output/shape.js';
import { UsageError } from '../util/errors.js';
import { addCommand, defineCommand } from './define.js';
import { DOMAIN_FLAG, OFFLINE_FLAGS, PAGING_FLAGS, WINDOW_FLAGS } from './options.js';
import { dateBound } from '../util/date-bound.js';
import { runReading } from './readings.js';

/** `lk history`: events across the library in a from/to window, newest first. */
const historyCommand = defineCommand({
  name: 'history',
  description: 'what you watched, played, read and listened to, newest first',
  output: DATA,
  flags: {
    ...WINDOW_FLAGS,
    ...DOMAIN_FLAG,
    ...OFFLINE_FLAGS,
    ...PAGING_FLAGS,
  },
  examples: [
    'lk history --from 2026-01-01 --to 2026-01-31',
    "lk history --all --json | jq 'group_by(.kind) | map({kind: .[0].kind, n: length})'",
    'lk history --from yesterday --domain books',
    '0 6 * * 1  lk history --from 7d --csv > ~/weekly-history.csv',
  ],
  async run(ctx, _out, options) {
    const now = ctx.now();
    const from = options.from?.at(now);
    const to = options.to?.at(now);
    // The server refuses an empty window (400); say so before asking it. A --to day includes that whole day.
    if (from !== undefined && to !== undefined && dateBound(from, 'start') > dateBound(to, 'end')) {
      throw new UsageError(`--from ${from} is after --to ${to}: nothing can fall in that window`);
    }
    return runReading(ctx, 'history', { from, to, domain: options.domain }, options);
  },
});

export function registerHistory(program: Command): void {
  addCommand(program, historyCommand);
}
