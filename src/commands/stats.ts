import type { Command } from 'commander';
import { renderSections } from '../output/render.js';
import { addCommand, defineCommand } from './define.js';
import { runOffline } from './offline.js';
import { DOMAIN_FLAG, OFFLINE_FLAGS, OUTPUT_FLAG } from './options.js';

/** `lk stats`: the summary, a section per group of figures. */
const statsCommand = defineCommand({
  name: 'stats',
  description: 'your stats summary, a section per group of figures',
  flags: { ...OUTPUT_FLAG, ...DOMAIN_FLAG, ...OFFLINE_FLAGS },
  examples: ['lk stats', 'lk stats --domain BOOKS --json | jq .', '0 0 1 * *  lk stats --json > ~/stats-$(date +\\%Y-\\%m).json'],
  async run(ctx, out, options) {
    if (options.offline) return runOffline(ctx, out, 'stats', options);
    const output = await out.outputOptions();
    const client = await ctx.client();
    const summary = await client.get('/v1/stats/summary', { domain: options.domain });
    await renderSections(summary.json, output);
  },
});

export function registerStats(program: Command): void {
  addCommand(program, statsCommand);
}
