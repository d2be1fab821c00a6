import type { Command } from 'commander';
import { DATA } from '../output/shape.js';
import { addCommand, defineCommand } from './define.js';
import { OUTPUT_FLAG, PAGING_FLAGS } from './options.js';
import { examples, showDefaultSubcommandOptions } from './help-layout.js';
import { runReading } from './readings.js';
import { REQUESTS } from './uses.js';

/** `lk profile`. */
const showCommand = defineCommand({
  name: 'show',
  uses: REQUESTS,
  description: 'your profile',
  output: DATA,
  flags: OUTPUT_FLAG,
  examples: ['lk profile', "lk profile --json | jq -r '.username'"],
  async run(ctx) {
    return runReading(ctx, 'profile', {});
  },
});

/** `lk profile achievements`. */
const achievementsCommand = defineCommand({
  name: 'achievements',
  uses: REQUESTS,
  description: 'your achievements, unlocked or in progress',
  output: DATA,
  flags: PAGING_FLAGS,
  examples: ['lk profile achievements', "lk profile achievements --all --json | jq '[.[] | select(.unlockedAt != null)] | length'"],
  async run(ctx, _out, options) {
    return runReading(ctx, 'achievements', {}, options);
  },
});

export function registerProfile(program: Command): void {
  const profile = program
    .command('profile')
    .description('your public profile, and the achievements you unlocked')
    .addHelpText('after', examples('lk profile', "lk profile --json | jq -r '.username'", 'lk profile achievements --all'));
  showDefaultSubcommandOptions(profile, addCommand(profile, showCommand, { isDefault: true, hidden: true }));
  addCommand(profile, achievementsCommand);
}
