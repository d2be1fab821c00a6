import type { Command } from 'commander';
import { DATA } from '../output/shape.js';
import { fetchMe } from '../api/account.js';
import { resource } from '../output/result.js';
import { renderAccount } from '../output/wording/layouts.js';
import { addCommand, defineCommand } from './define.js';
import { OUTPUT_FLAG } from './options.js';
import { REQUESTS } from './uses.js';

/** `lk whoami`: the account, the key in use and its rate limit. */
const whoamiCommand = defineCommand({
  name: 'whoami',
  uses: REQUESTS,
  description: 'show the account, the key in use and its rate limit',
  output: DATA,
  flags: OUTPUT_FLAG,
  examples: ['lk whoami', "lk whoami --json | jq -r '.account.username'"],
  async run(ctx) {
    const client = await ctx.client();
    const key = (await ctx.key()).key;
    return resource(async () => (await fetchMe(client, key)).json, { write: renderAccount });
  },
});

export function registerWhoami(program: Command): void {
  addCommand(program, whoamiCommand);
}
