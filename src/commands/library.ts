import type { Command } from 'commander';
import type { Context } from '../context.js';
import { entryView, historyView } from '../output/views.js';
import { action } from './action.js';
import { runListing, runSingle } from './listing.js';
import { choiceOption } from './choices.js';
import {
  addOutputOption,
  addPagingOptions,
  domainOption,
  examples,
  ORDERS,
  PHASES,
  type PagingFlags,
  showDefaultSubcommandOptions,
  SORTS,
  addDefaultSubcommand,
  completeOperandOf,
  ENTRY_IDS,
} from './options.js';
import { dbOption, offlineOption, runOffline } from './offline.js';

interface ListOptions extends PagingFlags {
  phase?: string;
  domain?: string;
  sort?: string;
  order?: string;
}

export function registerLibrary(program: Command): void {
  const library = program
    .command('library')
    .description('your library: entries with their work, status and progress')
    .addHelpText(
      'after',
      examples('lk library --phase IN_PROGRESS', "lk library --all --json | jq -r '.[] | select(.rating >= 9) | .work.title'", 'lk library show 42'),
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
        "lk library --all --ndjson | jq -c '{title: .work.title, rating}'",
        'lk library --domain BOOKS --fields work.title,status,progress.pages',
        '0 3 * * *  lk library --all --csv > ~/library.csv',
      ),
    )
    .action(action(runList));
  showDefaultSubcommandOptions(library, list);

  completeOperandOf(
    addOutputOption(library.command('show')).description('one library entry by its id').argument('<id>', 'entry id (the ID column of `lk library`)'),
    0,
    { dynamic: ENTRY_IDS },
  )
    .addHelpText('after', examples('lk library show 42', 'lk library show 42 --json | jq .work'))
    .action(action(runShow));

  addPagingOptions(
    completeOperandOf(library.command('history').description('the history of one entry, undated events last').argument('<id>', 'entry id'), 0, {
      dynamic: ENTRY_IDS,
    }),
  )
    .addHelpText('after', examples('lk library history 42', "lk library history 42 --all --json | jq 'map(select(.date == null)) | length'"))
    .action(action(runHistory));
}

/** `lk library`: the entries, filtered and sorted by the server (or the mirror, --offline). */
export async function runList(ctx: Context, options: ListOptions): Promise<void> {
  if (options.offline) return runOffline(ctx, 'library', options);
  const query = { phase: options.phase, domain: options.domain, sort: options.sort, order: options.order, lang: ctx.lang() };
  await runListing(ctx, { endpoint: 'library', view: entryView }, query, options);
}

/** `lk library show ID`. */
export async function runShow(ctx: Context, _options: object, [id]: string[]): Promise<void> {
  await runSingle(ctx, { endpoint: 'entry', view: entryView, id: { what: 'library entry', raw: id! } }, { lang: ctx.lang() });
}

/** `lk library history ID`: one entry's events, undated ones last. */
export async function runHistory(ctx: Context, options: PagingFlags, [id]: string[]): Promise<void> {
  await runListing(ctx, { endpoint: 'entryHistory', view: historyView, id: { what: 'library entry', raw: id! } }, { lang: ctx.lang() }, options);
}
