import { Option, type Command } from 'commander';
import { UsageError } from '../util/errors.js';
import { action } from './action.js';
import { dbOption, openMirror, pagesOf } from './offline.js';
import { addPagingOptions, domainOption, examples, PHASES, type PagingFlags } from './options.js';

interface SearchFlags extends PagingFlags {
  db?: string;
  domain?: string;
  phase?: string;
}

export function registerSearch(program: Command): void {
  addPagingOptions(
    program
      .command('search')
      .description('full-text search of the mirror: titles, notes and reviews (lk sync first)')
      .argument('<text>', 'words to find; each matches as a prefix, case and accents ignored')
      .addOption(domainOption())
      .addOption(new Option('--phase <phase>', 'only entries in this phase').choices(PHASES))
      .addOption(dbOption()),
  )
    .addHelpText(
      'after',
      examples(
        'lk search amelie',
        'lk search "tokyo story" --json | jq \'.[] | {title: .work.title, rating}\'',
        'lk search dune --domain BOOKS --phase DONE',
      ),
    )
    .action(
      action<SearchFlags>(async (ctx, options, [text]) => {
        if (!text || text.trim() === '') throw new UsageError('lk search needs some text to find');
        const output = await ctx.outputOptions();
        const db = await openMirror(ctx, options.db, 'lk search');
        try {
          const { searchEntries } = await import('../mirror/read.js');
          const filters = { domain: options.domain?.toUpperCase(), phase: options.phase?.toUpperCase() };
          const { renderListing } = await import('../output/render.js');
          const { entryView } = await import('../output/views.js');
          await renderListing(
            pagesOf((window) => searchEntries(db, text, filters, window), options),
            entryView,
            output,
            { paged: true },
          );
        } finally {
          db.close();
        }
      }),
    );
}
