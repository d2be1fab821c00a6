import type { Command } from 'commander';
import { DATA } from '../output/shape.js';
import { pathOf } from '../api/endpoints.js';
import { paginate } from '../api/paginate.js';
import type { Listing } from '../output/result.js';
import { FORMATS } from '../config/settings.js';
import type { Context } from '../context.js';
import { UsageError } from '../util/errors.js';
import { renderCalendarFeed } from '../output/formats/render.js';
import { calendarView } from '../output/wording/views.js';
import type { OutputSession } from '../output/session.js';
import { addCommand, defineCommand } from './define.js';
import { flag, type OptionsOf } from './flags.js';
import { openMirrorHere, pagesOf, runOffline } from './offline.js';
import { DOMAIN_FLAG, OFFLINE_FLAGS } from './options.js';
import { runListing } from './listing.js';

const CALENDAR_FLAGS = {
  ...DOMAIN_FLAG,
  ...OFFLINE_FLAGS,
  output: flag.text('-o, --output <file>', 'write the output (or the --format ics feed) to this file, whole or not at all'),
  spoilerFree: flag.toggle('--spoiler-free', 'with --format ics: leave episode titles out of the feed'),
};
type CalendarOptions = OptionsOf<typeof CALENDAR_FLAGS>;

/** `lk calendar`: upcoming episodes, as a listing or (--format ics) an iCalendar feed. */
const calendarCommand = defineCommand({
  name: 'calendar',
  description: 'upcoming episodes of the shows you follow (up to 90 days, at most 60), in your local time',
  output: { ...DATA, formats: [...DATA.formats, 'ics'] },
  flags: CALENDAR_FLAGS,
  help: `
--format ics writes an iCalendar feed: one event per episode (UTC, with a stable UID, so a calendar app updates
events instead of adding copies), marked free time, asking subscribers to refresh every 12 hours.
`,
  examples: [
    'lk calendar',
    "lk calendar --json | jq -r '.[] | select(.episodesBehind > 0) | .show.title' | sort -u",
    'lk calendar --format ics > upcoming.ics',
    'lk calendar --format ics --spoiler-free -o ~/calendar/lk.ics',
    '17 */6 * * *  LK_API_KEY_FILE=$HOME/.config/lk/key /usr/local/bin/lk calendar -q --format ics -o $HOME/calendar/lk.ics',
  ],
  run: runCalendar,
});

export function registerCalendar(program: Command): void {
  addCommand(program, calendarCommand);
}

async function runCalendar(ctx: Context, out: OutputSession, options: CalendarOptions): Promise<Listing | void> {
  const format = out.format([...FORMATS, 'ics']);
  if (format === 'ics') return runFeed(ctx, out, options);
  if (options.spoilerFree) {
    throw new UsageError(
      '--spoiler-free applies to the iCalendar feed (--format ics)',
      'To leave titles out elsewhere: --fields airsAt,show.title,season,episode',
    );
  }
  if (options.offline) return runOffline(ctx, out, 'calendar', options);
  // Not an envelope in SPEC.md (at most 60 items); should an instance page it, every page is read.
  return runListing(ctx, { endpoint: 'calendar', view: calendarView, followIfPaged: true }, { domain: options.domain, lang: ctx.lang() }, {});
}

async function runFeed(ctx: Context, out: OutputSession, options: CalendarOptions): Promise<void> {
  // Checked before the request: a typo in a crontab should fail at once, not after the network.
  if (options.output === '') throw new UsageError('--output needs a path');
  const file = options.output === undefined || options.output === '-' ? undefined : options.output;
  const feed = { io: out.io, spoilerFree: Boolean(options.spoilerFree), file };
  if (options.offline) {
    const { pages, syncedAt } = await mirroredCalendar(ctx, options);
    return renderCalendarFeed(pages, { ...feed, now: syncedAt });
  }
  const query = { domain: options.domain, lang: ctx.lang() };
  const client = await ctx.client();
  await renderCalendarFeed(paginate(client, pathOf('calendar'), query, { followIfPaged: true }), { ...feed, now: ctx.now() });
}

/**
 * The upcoming episodes the mirror holds (read as --offline reads it), as the one page the feed reads: no key, no
 * request. The feed is stamped with the mirror's last sync: an unchanged mirror gives the same bytes (lk serve's ETag).
 */
async function mirroredCalendar(ctx: Context, options: CalendarOptions) {
  const db = await openMirrorHere(ctx, options.db, '--offline');
  try {
    const { upcomingCalendar, mirrorStamp } = await import('../mirror/read.js');
    const now = ctx.now();
    return { pages: pagesOf(upcomingCalendar(db, { domain: options.domain?.toUpperCase() }, now), { all: true }), syncedAt: mirrorStamp(db, now) };
  } finally {
    db.close();
  }
}
