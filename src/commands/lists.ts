import type { Command } from 'commander';
import { pathOf } from '../api/endpoints.js';
import { renderListWithItems } from '../output/render.js';
import { listView } from '../output/views.js';
import { addCommand, defineCommand, operand } from './define.js';
import { runListing } from './listing.js';
import { runOffline } from './offline.js';
import { entityId, examples, LIST_IDS, OFFLINE_FLAGS, OUTPUT_FLAG, PAGING_FLAGS, showDefaultSubcommandOptions } from './options.js';

/** `lk lists`: GET /v1/lists may answer with an envelope or a plain array; paginate reads both. */
const listCommand = defineCommand({
  name: 'list',
  description: 'your lists',
  flags: { ...OFFLINE_FLAGS, ...PAGING_FLAGS },
  examples: ['lk lists', "lk lists --json | jq -r '.[] | [.id, .name] | @tsv'", '0 5 * * *  lk lists --all --csv > ~/lists.csv'],
  async run(ctx, out, options) {
    if (options.offline) return runOffline(ctx, out, 'lists', options);
    await runListing(ctx, out, { endpoint: 'lists', view: listView }, { lang: ctx.lang() }, options);
  },
});

/** `lk lists show ID`: the list's items (the list itself with --json). */
const showCommand = defineCommand({
  name: 'show',
  description: 'the works, seasons and episodes on one list (--json prints the list itself)',
  operands: [operand('<id>', 'list id (the ID column of `lk lists`)', { complete: { dynamic: LIST_IDS } })],
  flags: OUTPUT_FLAG,
  examples: ['lk lists show 7', 'lk lists show 7 --json | jq -r \'.items[] | select(.type == "episode")\'', 'lk lists show 7 --csv > list-7.csv'],
  async run(ctx, out, _options, [rawId]) {
    const id = entityId('list', rawId);
    const output = await out.outputOptions();
    const client = await ctx.client();
    const list = (await client.get(pathOf('list', id), { lang: ctx.lang() }, { notFound: `list ${rawId}` })).json;
    await renderListWithItems(list, output);
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
