import type { Command } from 'commander';
import { fetchMe } from '../api/account.js';
import { renderWhoami } from '../output/render.js';
import { addCommand, defineCommand } from './define.js';
import { OUTPUT_FLAG } from './options.js';

/** `lk whoami`: the account, the key in use and its rate limit. */
const whoamiCommand = defineCommand({
  name: 'whoami',
  description: 'show the account, the key in use and its rate limit',
  flags: OUTPUT_FLAG,
  examples: ['lk whoami', "lk whoami --json | jq -r '.account.username'"],
  async run(ctx, out) {
    const client = await ctx.client();
    const options = await out.outputOptions();
    const me = await fetchMe(client, (await ctx.key()).key);
    await renderWhoami(me.json, options);
    // A table of nothing would leave a person wondering; --json and the other formats keep the body as it came.
    if (options.format === 'table' && isEmpty(me.json) && options.io.mayNotify) {
      options.io.info('The server sent no account, key or rate-limit information (GET /v1/me answered with nothing in it).');
    }
  },
});

export function registerWhoami(program: Command): void {
  addCommand(program, whoamiCommand);
}

function isEmpty(body: unknown): boolean {
  return body === null || body === undefined || (typeof body === 'object' && Object.keys(body).length === 0);
}
