import type { Command } from 'commander';
import { DATA } from '../output/shape.js';
import { addCommand, defineCommand, operand } from './define.js';
import { runReading } from './readings.js';
import { OFFLINE_FLAGS, OUTPUT_FLAG, PAGING_FLAGS } from './options.js';
import { examples, showDefaultSubcommandOptions } from './help-layout.js';
import { LIST_IDS } from '../completion/model.js';

/** `lk lists`: GET /v1/lists may answer with an envelope or a plain array; paginate reads both. */
const listCommand = defineCommand({
  name: 'list',
  description: 'your lists',
  output: DATA,
  flags: { ...OFFLINE_FLAGS, ...PAGING_FLAGS },
  examples: ['lk lists', "lk lists --json | jq -r '.[] | [.id, .name] | @tsv'", '0 5 * * *  lk lists --all --csv > ~/lists.csv'],
  async run(ctx, _out, options) {
    return runReading(ctx, 'lists', {}, options);
  },
});

/** `lk lists show ID`: the list's items (the list itself with --json). */
const showCommand = defineCommand({
  name: 'show',
  description: 'the works, seasons and episodes on one list (--json prints the list itself)',
  output: DATA,
  operands: [operand('<id>', 'list id (the ID column of `lk lists`)', { complete: { dynamic: LIST_IDS } })],
  flags: OUTPUT_FLAG,
  examples: ['lk lists show 7', 'lk lists show 7 --json | jq -r \'.items[] | select(.type == "episode")\'', 'lk lists show 7 --csv > list-7.csv'],
  async run(ctx, _out, _options, [id]) {
    return runReading(ctx, 'list', { id });
  },
});

export function registerLists(program: Command): void {
  const lists = program
    .command('lists')
    .description('your lists (and lists shared with you for editing), and what is on them')
    .addHelpText('after', examples('lk lists', 'lk lists show 7', "lk lists --json | jq -r '.[].id'"));
  showDefaultSubcommandOptions(lists, addCommand(lists, listCommand, { isDefault: true }));
  addCommand(lists, showCommand);
}
