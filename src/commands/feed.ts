import type { Command } from 'commander';
import type { Context } from '../context.js';
import { UsageError } from '../util/errors.js';
import { action } from './action.js';
import { dbOption, openMirror } from './offline.js';
import { dateBound, domainOption, examples, isoDate, wholeNumber } from './options.js';
import { runSync } from './sync.js';

interface FeedFlags {
  limit?: string;
  domain?: string;
  since?: string;
  public?: boolean;
  sync?: boolean;
  output?: string;
  db?: string;
}

export function registerFeed(program: Command): void {
  const feed = program
    .command('feed')
    .description('your recent activity from the mirror as an Atom 1.0 feed (or JSON Feed 1.1), for a site or a feed reader')
    .option('--limit <n>', 'entries in the feed, newest first, 1 to 1000 (default 50)')
    .addOption(domainOption())
    .option('--since <when>', 'only activity since then: 7d, 2w, 12h, today, 2026-01-31')
    .option('--public', 'leave out your notes and reviews marked as spoilers (see below)')
    .option('--sync', 'run lk sync first (needs the key), then make the feed')
    .option('-o, --output <file>', 'write the feed to this file, whole or not at all (left untouched when unchanged)')
    .addOption(dbOption())
    .addHelpText(
      'after',
      `
--format atom (the default) or --format json (also --json) for JSON Feed 1.1. Each entry is one dated event of your
history: a work finished, a film seen; episodes grouped per show and day, game and reading sessions per work and day.
Ids are urn:uuid made from the account and the event, the same in every run and after any re-sync, and the feed's
updated date is its newest entry's: an unchanged library gives the same bytes.
Without --public the feed holds your notes (the web app keeps them private): stderr says so. The API's profile names
no field saying what is public, so --public keeps what a public page shows by nature (titles, dates, ratings, links,
reviews) and leaves out the entries' notes and the text of reviews marked as spoilers.
Needs Node ${'22.13'} or later (node:sqlite), like every command that reads the mirror.
${examples(
  'lk feed > activity.atom',
  'lk feed --format json --domain BOOKS --limit 20 -o ~/site/books.json',
  '7 * * * *  LK_API_KEY_FILE=$HOME/.config/lk/key /usr/local/bin/lk feed -q --sync --public -o /var/www/site/activity.atom',
)}`,
    )
    .action(action<FeedFlags>(runFeed));

  // --format atom is lk feed's alone: every other command refuses it before any request, as calendar does ics.
  program.hook('preAction', (root, actionCommand) => {
    if (root.opts<{ format?: string }>().format === 'atom' && actionCommand !== feed) {
      throw new UsageError('--format atom is only for lk feed (your recent activity as a feed)', 'Use table, json, ndjson, csv or tsv here.');
    }
  });
}

function feedFormat(ctx: Context): 'atom' | 'json' {
  const { format, json, ndjson, csv, tsv } = ctx.options;
  if (ndjson || csv || tsv || (format !== undefined && format !== 'atom' && format !== 'json'))
    throw new UsageError(
      `--format ${format ?? (ndjson ? 'ndjson' : csv ? 'csv' : 'tsv')} does not apply to lk feed`,
      'It writes Atom 1.0 (--format atom, the default) or JSON Feed 1.1 (--format json).',
    );
  return format === 'json' || json ? 'json' : 'atom';
}

async function runFeed(ctx: Context, options: FeedFlags): Promise<void> {
  // Everything checked before the mirror is opened or the server asked: a typo in a crontab fails at once.
  const format = feedFormat(ctx);
  if (ctx.options.fields !== undefined) throw new UsageError('--fields does not apply to lk feed (a feed has fixed properties)');
  if (ctx.options.jq !== undefined) throw new UsageError('--jq does not apply to lk feed', 'Pipe the JSON Feed instead: lk feed --json | jq …');
  if (options.output === '') throw new UsageError('--output needs a path');
  const limit = options.limit === undefined ? 50 : wholeNumber('--limit', options.limit, 1, 1000);
  const since = options.since === undefined ? undefined : dateBound(isoDate('--since', options.since, { edge: 'start', now: ctx.now() }), 'start');
  if (options.sync) await runSync(ctx, { db: options.db });
  const db = await openMirror(ctx, options.db, 'lk feed');
  try {
    const { makeFeed } = await import('../feed/document.js');
    const document = await makeFeed(db, { format, limit, domain: options.domain?.toUpperCase(), since, publicOnly: Boolean(options.public) });
    const { renderActivityFeed } = await import('../output/feed-output.js');
    await renderActivityFeed(document, { io: ctx.io, format, file: options.output === '-' ? undefined : options.output });
  } finally {
    db.close();
  }
}
