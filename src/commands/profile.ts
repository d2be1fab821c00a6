import type { Command } from 'commander';
import { renderSections } from '../output/render.js';
import { achievementView } from '../output/views.js';
import { action } from './action.js';
import { addOutputOption, addPagingOptions, examples, showDefaultSubcommandOptions, type PagingFlags, addDefaultSubcommand } from './options.js';
import { runListing } from './listing.js';
import type { Context } from '../context.js';

export function registerProfile(program: Command): void {
  const profile = program
    .command('profile')
    .description('your public profile, and the achievements you unlocked')
    .addHelpText('after', examples('lk profile', "lk profile --json | jq -r '.username'", 'lk profile achievements --all'));

  const show = addOutputOption(addDefaultSubcommand(profile, 'show', { hidden: true }))
    .description('your profile')
    .addHelpText('after', examples('lk profile', "lk profile --json | jq -r '.username'"))
    .action(
      action(async (ctx) => {
        const output = await ctx.outputOptions();
        const client = await ctx.client();
        await renderSections((await client.get('/v1/profile')).json, output);
      }),
    );
  showDefaultSubcommandOptions(profile, show);

  addPagingOptions(profile.command('achievements').description('your achievements, unlocked or in progress'))
    .addHelpText(
      'after',
      examples('lk profile achievements', "lk profile achievements --all --json | jq '[.[] | select(.unlockedAt != null)] | length'"),
    )
    .action(action(runAchievements));
}

/** `lk profile achievements`. */
export async function runAchievements(ctx: Context, options: PagingFlags): Promise<void> {
  await runListing(ctx, { endpoint: 'achievements', view: achievementView }, {}, options);
}
