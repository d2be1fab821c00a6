import type { Command } from 'commander';
import { DATA } from '../output/shape.js';
import { document, type Document, type Listing } from '../output/result.js';
import type { Context } from '../context.js';
import { UsageError } from '../util/errors.js';
import { formatCount } from '../util/units.js';
import type { OutputSession } from '../output/session.js';
import { addCommand, defineCommand } from './define.js';
import { flag, type OptionsOf } from './flags.js';
import { commandHost, readingCommand, runReading } from './readings.js';
import { calendarIcs } from '../readings/composed.js';
import { READINGS } from '../readings/table.js';
import { DOMAIN_FLAG, OFFLINE_FLAGS } from './options.js';

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

async function runCalendar(ctx: Context, out: OutputSession, options: CalendarOptions): Promise<Listing | Document | void> {
  const format = out.format();
  if (format === 'ics') return icsFeed(ctx, options);
  if (options.spoilerFree) {
    throw new UsageError(
      '--spoiler-free applies to the iCalendar feed (--format ics)',
      'To leave titles out elsewhere: --fields airsAt,show.title,season,episode',
    );
  }
  // Not an envelope in docs/api.md (at most 60 items); should an instance page it, every page is read.
  return runReading(ctx, 'calendar', { domain: options.domain }, options);
}

/**
 * The iCalendar feed: serialised whole (the calendar holds at most 60 episodes), for stdout or the -o file. Offline
 * it is read as every --offline reading is (so --lang is refused as the listing refuses it: the titles are in the
 * language they were synced in), its events stamped with their last change (lk serve's ETag holds).
 */
function icsFeed(ctx: Context, options: CalendarOptions): Document {
  const offline = Boolean(options.offline);
  const host = commandHost(ctx, { db: options.db, what: readingCommand(READINGS.calendar, offline) });
  return document({
    format: 'ics',
    async make() {
      const { feed, items } = await calendarIcs(host, { domain: options.domain, spoilerFree: Boolean(options.spoilerFree) }, offline);
      if (feed.skipped > 0)
        ctx.io.info(`lk: left out ${formatCount(feed.skipped)} of ${formatCount(items)} upcoming episodes: no air time, or listed twice`);
      const events = `${formatCount(feed.events)} event${feed.events === 1 ? '' : 's'}`;
      return {
        data: feed.text,
        empty: feed.events === 0 ? 'No upcoming episodes.' : undefined,
        said: ({ to, paths: [path] }) => (to === 'files' ? [`lk: wrote ${path} (${events})`] : []),
      };
    },
  });
}
