import type { Command } from 'commander';
import { DATA } from '../output/shape.js';
import { addCommand, defineCommand, operand } from './define.js';
import { flag } from './flags.js';
import { DOMAIN_FLAG, OFFLINE_FLAGS, OUTPUT_FLAG, PAGING_FLAGS, PHASE_FLAG } from './options.js';
import { examples, showDefaultSubcommandOptions } from './help-layout.js';
import { ENTRY_IDS } from '../completion/model.js';
import { ORDERS, SORTS } from '../api/vocabulary.js';
import { runReading } from './readings.js';

/** `lk library`: the entries, filtered and sorted by the server (or the mirror, --offline). */
const listCommand = defineCommand({
  name: 'list',
  description: 'list library entries, newest first',
  output: DATA,
  flags: {
    ...PHASE_FLAG,
    ...DOMAIN_FLAG,
    sort: flag.choice('--sort <key>', 'sort by', SORTS),
    order: flag.choice('--order <order>', 'desc keeps the natural order (newest, best, A to Z); asc reverses', ORDERS),
    ...OFFLINE_FLAGS,
    ...PAGING_FLAGS,
  },
  examples: [
    'lk library --phase DONE --sort rating',
    "lk library --all --ndjson | jq -c '{title: .work.title, rating}'",
    'lk library --domain BOOKS --fields work.title,status,progress.pages',
    '0 3 * * *  lk library --all --csv > ~/library.csv',
  ],
  async run(ctx, _out, options) {
    const { phase, domain, sort, order } = options;
    return runReading(ctx, 'library', { phase, domain, sort, order }, options);
  },
});

/** `lk library show ID`. */
const showCommand = defineCommand({
  name: 'show',
  description: 'one library entry by its id',
  output: DATA,
  operands: [operand('<id>', 'entry id (the ID column of `lk library`)', { complete: { dynamic: ENTRY_IDS } })],
  flags: OUTPUT_FLAG,
  examples: ['lk library show 42', 'lk library show 42 --json | jq .work'],
  async run(ctx, _out, _options, [id]) {
    return runReading(ctx, 'entry', { id });
  },
});

/** `lk library history ID`: one entry's events, undated ones last. */
const historyCommand = defineCommand({
  name: 'history',
  description: 'the history of one entry, undated events last',
  output: DATA,
  operands: [operand('<id>', 'entry id', { complete: { dynamic: ENTRY_IDS } })],
  flags: PAGING_FLAGS,
  examples: ['lk library history 42', "lk library history 42 --all --json | jq 'map(select(.date == null)) | length'"],
  async run(ctx, _out, options, [id]) {
    return runReading(ctx, 'entryHistory', { id }, options);
  },
});

export function registerLibrary(program: Command): void {
  const library = program
    .command('library')
    .description('your library: entries with their work, status and progress')
    .addHelpText(
      'after',
      examples('lk library --phase IN_PROGRESS', "lk library --all --json | jq -r '.[] | select(.rating >= 9) | .work.title'", 'lk library show 42'),
    );
  showDefaultSubcommandOptions(library, addCommand(library, listCommand, { isDefault: true }));
  addCommand(library, showCommand);
  addCommand(library, historyCommand);
}
