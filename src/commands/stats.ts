import type { Command } from 'commander';
import { DATA } from '../output/shape.js';
import { addCommand, defineCommand } from './define.js';
import { runReading } from './readings.js';
import { DOMAIN_FLAG, OFFLINE_FLAGS, OUTPUT_FLAG } from './options.js';
import { orMirror, REQUESTS } from './uses.js';

/** `lk stats`: the summary, a section per group of figures. */
const statsCommand = defineCommand({
  name: 'stats',
  uses: orMirror(REQUESTS),
  description: 'your stats summary, a section per group of figures',
  output: DATA,
  flags: { ...OUTPUT_FLAG, ...DOMAIN_FLAG, ...OFFLINE_FLAGS },
  examples: ['lk stats', 'lk stats --domain BOOKS --json | jq .', '0 0 1 * *  lk stats --json > ~/stats-$(date +\\%Y-\\%m).json'],
  async run(ctx, _out, options) {
    return runReading(ctx, 'stats', { domain: options.domain }, options);
  },
});

export function registerStats(program: Command): void {
  addCommand(program, statsCommand);
}
