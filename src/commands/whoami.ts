import type { Command } from 'commander';
import { fetchMe } from '../api/account.js';
import { renderWhoami } from '../output/render.js';
import { action } from './action.js';
import { addOutputOption, examples } from './options.js';

export function registerWhoami(program: Command): void {
  addOutputOption(program.command('whoami'))
    .description('show the account, the key in use and its rate limit')
    .addHelpText('after', examples('lk whoami', "lk whoami --json | jq -r '.account.username'"))
    .action(
      action(async (ctx) => {
        const client = await ctx.client();
        const options = await ctx.outputOptions();
        const me = await fetchMe(client, (await ctx.key()).key);
        await renderWhoami(me.json, options);
        // A table of nothing would leave a person wondering; --json and the other formats keep the body as it came.
        if (options.format === 'table' && isEmpty(me.json) && options.io.mayNotify) {
          options.io.info('The server sent no account, key or rate-limit information (GET /v1/me answered with nothing in it).');
        }
      }),
    );
}

function isEmpty(body: unknown): boolean {
  return body === null || body === undefined || (typeof body === 'object' && Object.keys(body).length === 0);
}
