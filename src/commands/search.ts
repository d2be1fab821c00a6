import type { Command } from 'commander';
import { DATA } from '../output/shape.js';
import { UsageError } from '../util/errors.js';
import { addCommand, defineCommand, operand } from './define.js';
import { runReading } from './readings.js';
import { DB_FLAG, DOMAIN_FLAG, PAGING_FLAGS, PHASE_FLAG } from './options.js';
import { plus, PROFILE } from './uses.js';

/** `lk search TEXT`: full-text search of the mirror. */
const searchCommand = defineCommand({
  name: 'search',
  uses: plus(PROFILE, 'lang'),
  description: 'full-text search of the mirror: titles, notes and reviews (lk sync first)',
  output: DATA,
  operands: [operand('<text>', 'words to find; each matches as a prefix, case and accents ignored')],
  flags: {
    ...DOMAIN_FLAG,
    ...PHASE_FLAG,
    ...DB_FLAG,
    ...PAGING_FLAGS,
  },
  examples: [
    'lk search amelie',
    'lk search "tokyo story" --json | jq \'.[] | {title: .work.title, rating}\'',
    'lk search dune --domain BOOKS --phase DONE',
  ],
  async run(ctx, _out, options, [text]) {
    if (!text || text.trim() === '') throw new UsageError('lk search needs some text to find');
    return runReading(ctx, 'search', { text, domain: options.domain, phase: options.phase }, options);
  },
});

export function registerSearch(program: Command): void {
  addCommand(program, searchCommand);
}
