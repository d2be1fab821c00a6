import type { Command } from 'commander';
import { renderSections } from '../output/render.js';
import { action } from './action.js';
import { dbOption, offlineOption, runOffline } from './offline.js';
import { addOutputOption, domainOption, examples } from './options.js';

export function registerStats(program: Command): void {
  addOutputOption(program.command('stats'))
    .description('your stats summary, a section per group of figures')
    .addOption(domainOption())
    .addOption(offlineOption())
    .addOption(dbOption())
    .addHelpText(
      'after',
      examples('lk stats', 'lk stats --domain BOOKS --json | jq .', '0 0 1 * *  lk stats --json > ~/stats-$(date +\\%Y-\\%m).json'),
    )
    .action(
      action<{ domain?: string; offline?: boolean }>(async (ctx, options) => {
        if (options.offline) return runOffline(ctx, 'stats', options);
        const output = await ctx.outputOptions();
        const client = await ctx.client();
        const summary = await client.get('/v1/stats/summary', { domain: options.domain });
        await renderSections(summary.json, output);
      }),
    );
}
