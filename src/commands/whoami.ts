import type { Command } from 'commander';
import { renderSingle } from '../output/render.js';
import { action } from './action.js';
import { examples } from './options.js';

export function registerWhoami(program: Command): void {
  program
    .command('whoami')
    .description('show the account, the key in use and its rate limit')
    .addHelpText('after', examples('lk whoami', "lk whoami --json | jq -r '.account.username'"))
    .action(
      action(async (ctx) => {
        const client = await ctx.client();
        const options = await ctx.outputOptions();
        const me = await client.get('/v1/me');
        await renderSingle(me.json, undefined, options);
      }),
    );
}
