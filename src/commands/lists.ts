import type { Command } from 'commander';
import { pageOf, paginate } from '../api/paginate.js';
import { getPath } from '../util/object-path.js';
import { renderListing, renderSingle } from '../output/render.js';
import { sanitizeText } from '../output/sanitize.js';
import { listItemView, listView } from '../output/views.js';
import { action } from './action.js';
import { dbOption, offlineOption, runOffline } from './offline.js';
import { addOutputOption, addPagingOptions, entityId, examples, pagingFrom, showDefaultSubcommandOptions, type PagingFlags, addDefaultSubcommand, completeOperandOf, LIST_IDS } from './options.js';

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
    .action(
      action<PagingFlags>(async (ctx, options) => {
        if (options.offline) return runOffline(ctx, 'lists', options);
        const paging = pagingFrom(options);
        const output = await ctx.outputOptions();
        const client = await ctx.client();
        // GET /v1/lists may answer with an envelope or a plain array: paginate reads both.
        await renderListing(paginate(client, '/v1/lists', { lang: ctx.lang() }, paging), listView, output, { paged: true });
      }),
    );
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
      examples('lk lists show 7', "lk lists show 7 --json | jq -r '.items[] | select(.type == \"episode\")'", 'lk lists show 7 --csv > list-7.csv'),
    )
    .action(
      action(async (ctx, _options, [rawId]) => {
        const id = entityId('list', rawId!);
        const output = await ctx.outputOptions();
        const client = await ctx.client();
        const list = (await client.get(`/v1/lists/${id}`, { lang: ctx.lang() }, { notFound: `list ${rawId}` })).json;
        if (output.format === 'json') {
          await renderSingle(list, undefined, output);
          return;
        }
        const items = (list as { items?: unknown } | null)?.items;
        // On a terminal, the list's name heads its items (on stderr, so that the table stays pure data).
        const name = getPath(list, 'name') ?? getPath(list, 'title');
        if (output.format === 'table' && typeof name === 'string' && output.io.mayNotify) {
          output.io.info(output.display.colors.bold(sanitizeText(name)));
        }
        await renderListing(pageOf(Array.isArray(items) ? items : []), listItemView, output, { paged: false });
      }),
    );
}
