import type { Command } from 'commander';
import { pathOf } from '../api/endpoints.js';
import type { Context } from '../context.js';
import { renderListWithItems } from '../output/render.js';
import { listView } from '../output/views.js';
import { action } from './action.js';
import { runListing } from './listing.js';
import { dbOption, offlineOption, runOffline } from './offline.js';
import {
  addOutputOption,
  addPagingOptions,
  entityId,
  examples,
  showDefaultSubcommandOptions,
  type PagingFlags,
  addDefaultSubcommand,
  completeOperandOf,
  LIST_IDS,
} from './options.js';

export function registerLists(program: Command): void {
  const lists = program
    .command('lists')
    .description('your lists (and lists shared with you for editing), and what is on them')
    .addHelpText('after', examples('lk lists', 'lk lists show 7', "lk lists --json | jq -r '.[].id'"));

  const list = addPagingOptions(addDefaultSubcommand(lists, 'list').description('your lists').addOption(offlineOption()).addOption(dbOption()))
    .addHelpText(
      'after',
      examples('lk lists', "lk lists --json | jq -r '.[] | [.id, .name] | @tsv'", '0 5 * * *  lk lists --all --csv > ~/lists.csv'),
    )
    .action(action(runList));
  showDefaultSubcommandOptions(lists, list);

  completeOperandOf(
    addOutputOption(lists.command('show'))
      .description('the works, seasons and episodes on one list (--json prints the list itself)')
      .argument('<id>', 'list id (the ID column of `lk lists`)'),
    0,
    { dynamic: LIST_IDS },
  )
    .addHelpText(
      'after',
      examples('lk lists show 7', 'lk lists show 7 --json | jq -r \'.items[] | select(.type == "episode")\'', 'lk lists show 7 --csv > list-7.csv'),
    )
    .action(action(runShow));
}

/** `lk lists`: GET /v1/lists may answer with an envelope or a plain array; paginate reads both. */
export async function runList(ctx: Context, options: PagingFlags): Promise<void> {
  if (options.offline) return runOffline(ctx, 'lists', options);
  await runListing(ctx, { endpoint: 'lists', view: listView }, { lang: ctx.lang() }, options);
}

/** `lk lists show ID`: the list's items (the list itself with --json). */
export async function runShow(ctx: Context, _options: object, [rawId]: string[]): Promise<void> {
  const id = entityId('list', rawId!);
  const output = await ctx.outputOptions();
  const client = await ctx.client();
  const list = (await client.get(pathOf('list', id), { lang: ctx.lang() }, { notFound: `list ${rawId}` })).json;
  await renderListWithItems(list, output);
}
