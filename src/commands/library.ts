import type { Command } from 'commander';
import { paginate } from '../api/paginate.js';
import { renderListing, renderSingle } from '../output/render.js';
import { entryView, historyView } from '../output/views.js';
import { action } from './action.js';
import { choiceOption } from './choices.js';
import { addOutputOption, addPagingOptions, domainOption, entityId, examples, ORDERS, pagingFrom, PHASES, showDefaultSubcommandOptions, SORTS, addDefaultSubcommand, completeOperandOf, ENTRY_IDS } from './options.js';
import { dbOption, offlineOption, runOffline } from './offline.js';

interface ListOptions {
  phase?: string;
  domain?: string;
  sort?: string;
  order?: string;
  page?: string;
  limit?: string;
  all?: boolean;
  max?: string;
  offline?: boolean;
}

export function registerLibrary(program: Command): void {
  const library = program
    .command('library')
    .description('your library: entries with their work, status and progress')
    .addHelpText(
      'after',
      examples(
        'lk library --phase IN_PROGRESS',
        'lk library --all --json | jq -r \'.[] | select(.rating >= 9) | .work.title\'',
        'lk library show 42',
      ),
    );

  const list = addPagingOptions(
    addDefaultSubcommand(library, 'list')
      .description('list library entries, newest first')
      .addOption(choiceOption('--phase <phase>', 'only entries in this phase', PHASES))
      .addOption(domainOption())
      .addOption(choiceOption('--sort <key>', 'sort by', SORTS))
      .addOption(choiceOption('--order <order>', 'desc keeps the natural order (newest, best, A to Z); asc reverses', ORDERS))
      .addOption(offlineOption())
      .addOption(dbOption()),
  )
    .addHelpText(
      'after',
      examples(
        'lk library --phase DONE --sort rating',
        'lk library --all --ndjson | jq -c \'{title: .work.title, rating}\'',
        'lk library --domain BOOKS --fields work.title,status,progress.pages',
        '0 3 * * *  lk library --all --csv > ~/library.csv',
      ),
    )
    .action(
      action<ListOptions>(async (ctx, options) => {
        if (options.offline) return runOffline(ctx, 'library', options);
        const paging = pagingFrom(options);
        const query = { phase: options.phase, domain: options.domain, sort: options.sort, order: options.order, lang: ctx.lang() };
        const output = await ctx.outputOptions();
        const client = await ctx.client();
        await renderListing(paginate(client, '/v1/library', query, paging), entryView, output, { paged: true });
      }),
    );
  showDefaultSubcommandOptions(library, list);

  completeOperandOf(
    addOutputOption(library.command('show'))
      .description('one library entry by its id')
      .argument('<id>', 'entry id (the ID column of `lk library`)'),
    0,
    { dynamic: ENTRY_IDS },
  )
    .addHelpText('after', examples('lk library show 42', 'lk library show 42 --json | jq .work'))
    .action(
      action(async (ctx, _options, [rawId]) => {
        const id = entityId('entry', rawId!);
        const output = await ctx.outputOptions();
        const client = await ctx.client();
        const entry = await client.get(`/v1/library/${id}`, { lang: ctx.lang() }, { notFound: `library entry ${rawId}` });
        await renderSingle(entry.json, entryView, output);
      }),
    );

  addPagingOptions(
    completeOperandOf(
      library
        .command('history')
        .description('the history of one entry, undated events last')
        .argument('<id>', 'entry id'),
      0,
      { dynamic: ENTRY_IDS },
    ),
  )
    .addHelpText('after', examples('lk library history 42', 'lk library history 42 --all --json | jq \'map(select(.date == null)) | length\''))
    .action(
      action<ListOptions>(async (ctx, options, [rawId]) => {
        const id = entityId('entry', rawId!);
        const paging = pagingFrom(options);
        const output = await ctx.outputOptions();
        const client = await ctx.client();
        // A 404 on the first page means the entry does not exist.
        const pages = paginate(client, `/v1/library/${id}/history`, { lang: ctx.lang() }, paging, { notFound: `library entry ${rawId}` });
        await renderListing(pages, historyView, output, { paged: true });
      }),
    );
}
