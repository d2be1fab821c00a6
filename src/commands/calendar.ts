import type { Command } from 'commander';
import { paginate } from '../api/paginate.js';
import { renderListing } from '../output/render.js';
import { calendarView } from '../output/views.js';
import { action } from './action.js';
import { domainOption, examples } from './options.js';

export function registerCalendar(program: Command): void {
  program
    .command('calendar')
    .description('upcoming episodes of the shows you follow (up to 90 days, at most 60), in your local time')
    .addOption(domainOption())
    .addHelpText(
      'after',
      examples(
        'lk calendar',
        "lk calendar --json | jq -r '.[] | select(.episodesBehind > 0) | .show.title' | sort -u",
        '0 8 * * *  lk calendar --csv > ~/upcoming.csv',
      ),
    )
    .action(
      action<{ domain?: string }>(async (ctx, options) => {
        const output = await ctx.outputOptions();
        const client = await ctx.client();
        const query = { domain: options.domain, lang: ctx.lang() };
        // Not an envelope in SPEC.md (at most 60 items); should an instance page it, every page is read.
        await renderListing(paginate(client, '/v1/calendar', query, { followIfPaged: true }), calendarView, output, { paged: false });
      }),
    );
}
