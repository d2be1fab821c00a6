import type { Command } from 'commander';
import { paginate } from '../api/paginate.js';
import { FORMATS } from '../config/settings.js';
import type { Context } from '../context.js';
import { UsageError } from '../util/errors.js';
import { renderCalendarFeed } from '../output/render.js';
import { calendarView } from '../output/views.js';
import { action } from './action.js';
import { dbOption, offlineOption, runOffline } from './offline.js';
import { domainOption, examples } from './options.js';
import { runListing } from './listing.js';

interface CalendarOptions {
  domain?: string;
  output?: string;
  spoilerFree?: boolean;
  offline?: boolean;
}

export function registerCalendar(program: Command): void {
  const calendar = program
    .command('calendar')
    .description('upcoming episodes of the shows you follow (up to 90 days, at most 60), in your local time')
    .addOption(domainOption())
    .addOption(offlineOption())
    .addOption(dbOption())
    .option('-o, --output <file>', 'write the output (or the --format ics feed) to this file, whole or not at all')
    .option('--spoiler-free', 'with --format ics: leave episode titles out of the feed')
    .addHelpText(
      'after',
      `
--format ics writes an iCalendar feed: one event per episode (UTC, with a stable UID, so a calendar app updates
events instead of adding copies), marked free time, asking subscribers to refresh every 12 hours.
${examples(
  'lk calendar',
  "lk calendar --json | jq -r '.[] | select(.episodesBehind > 0) | .show.title' | sort -u",
  'lk calendar --format ics > upcoming.ics',
  'lk calendar --format ics --spoiler-free -o ~/calendar/lk.ics',
  '17 */6 * * *  LK_API_KEY_FILE=$HOME/.config/lk/key /usr/local/bin/lk calendar -q --format ics -o $HOME/calendar/lk.ics',
)}`,
    )
    .action(action<CalendarOptions>(runCalendar));

  // The global --format lists ics for calendar's sake; every other command refuses it here, before any request.
  program.hook('preAction', (root, actionCommand) => {
    if (root.opts<{ format?: string }>().format === 'ics' && actionCommand !== calendar) {
      throw new UsageError(
        '--format ics is only for lk calendar (the iCalendar feed of upcoming episodes)',
        'Use table, json, ndjson, csv or tsv here.',
      );
    }
  });
}

async function runCalendar(ctx: Context, options: CalendarOptions): Promise<void> {
  const format = ctx.format([...FORMATS, 'ics']);
  if (format === 'ics') return runFeed(ctx, options);
  if (options.spoilerFree) {
    throw new UsageError(
      '--spoiler-free applies to the iCalendar feed (--format ics)',
      'To leave titles out elsewhere: --fields airsAt,show.title,season,episode',
    );
  }
  if (options.offline) return runOffline(ctx, 'calendar', options);
  // Not an envelope in SPEC.md (at most 60 items); should an instance page it, every page is read.
  await runListing(ctx, { endpoint: 'calendar', view: calendarView, followIfPaged: true }, { domain: options.domain, lang: ctx.lang() }, {});
}

async function runFeed(ctx: Context, options: CalendarOptions): Promise<void> {
  // Checked before the request: a typo in a crontab should fail at once, not after the network.
  if (ctx.options.fields !== undefined) throw new UsageError('--fields does not apply to --format ics (a feed has fixed properties)');
  if (options.output === '') throw new UsageError('--output needs a path');
  const file = options.output === undefined || options.output === '-' ? undefined : options.output;
  const query = { domain: options.domain, lang: ctx.lang() };
  const client = await ctx.client();
  await renderCalendarFeed(paginate(client, '/v1/calendar', query, { followIfPaged: true }), {
    io: ctx.io,
    now: ctx.now(),
    spoilerFree: Boolean(options.spoilerFree),
    file,
  });
}
