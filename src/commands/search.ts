import { Option, type Command } from 'commander';
import { listing } from '../output/result.js';
import { DATA } from '../output/shape.js';
import { UsageError } from '../util/errors.js';
import { addCommand, defineCommand, operand } from './define.js';
import { flag } from './flags.js';
import { openMirrorForResult, pagesOf, requireTitleLanguage } from './offline.js';
import { DB_FLAG, DOMAIN_FLAG, PAGING_FLAGS, PHASES } from './options.js';
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
    phase: flag.custom<(typeof PHASES)[number] | undefined>(() => new Option('--phase <phase>', 'only entries in this phase').choices(PHASES)),
    ...DB_FLAG,
    ...PAGING_FLAGS,
  },
  examples: [
    'lk search amelie',
    'lk search "tokyo story" --json | jq \'.[] | {title: .work.title, rating}\'',
    'lk search dune --domain BOOKS --phase DONE',
  ],
  async run(ctx, out, options, [text]) {
    if (!text || text.trim() === '') throw new UsageError('lk search needs some text to find');
    const db = await openMirrorForResult(ctx, out, options.db, 'lk search');
    await requireTitleLanguage(ctx, db);
    const filters = { domain: options.domain?.toUpperCase(), phase: options.phase?.toUpperCase() };
    const { entryView } = await import('../output/wording/views.js');
    const { searchEntries } = await import('../mirror/read.js');
    return listing(
      pagesOf((window) => searchEntries(db, text, filters, window), options),
      entryView,
      true,
    );
  },
});

export function registerSearch(program: Command): void {
  addCommand(program, searchCommand);
}
