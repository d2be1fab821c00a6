import type { Command } from 'commander';
import { documentShape } from '../output/shape.js';
import type { Context } from '../context.js';
import { document, type Document } from '../output/result.js';
import type { OutputSession } from '../output/session.js';
import { addCommand, defineCommand } from './define.js';
import { flag, type OptionsOf } from './flags.js';
import { DEFAULT_FEED_LIMIT, feedReading } from '../readings/composed.js';
import { commandHost } from './readings.js';
import { DB_FLAG, DOMAIN_FLAG } from './options.js';
import { dateBound } from '../util/date-bound.js';
import { runSync } from './sync.js';
import { mirrorOr } from './uses.js';
import * as words from '../output/wording/feed-text.js';

const FEED_FLAGS = {
  limit: flag.count('--limit <n>', `entries in the feed, newest first, 1 to 1000 (default ${DEFAULT_FEED_LIMIT})`, 1, 1000),
  ...DOMAIN_FLAG,
  since: flag.date('--since <when>', 'only activity since then: 7d, 2w, 12h, today, 2026-01-31', 'start'),
  public: flag.toggle('--public', 'leave out your notes, private reviews and the text of spoilers (see below)'),
  sync: flag.toggle('--sync', 'run lk sync first (needs the key), then make the feed'),
  output: flag.text('-o, --output <file>', 'write the feed to this file, whole or not at all (left untouched when unchanged)'),
  ...DB_FLAG,
};

/** `lk feed`: recent activity from the mirror as Atom 1.0 or JSON Feed 1.1. */
const feedCommand = defineCommand({
  name: 'feed',
  uses: mirrorOr('sync'),
  description: 'your recent activity from the mirror as an Atom 1.0 feed (or JSON Feed 1.1), for a site or a feed reader',
  output: documentShape(['atom', 'json'], 'atom', {
    instead: { '--jq': 'pipe the JSON Feed instead: lk feed --json | jq …', '--fields': 'a feed has fixed properties' },
  }),
  flags: FEED_FLAGS,
  help: `
--format atom (the default) or --format json (also --json) for JSON Feed 1.1. Each entry is one dated event of your
history: a work finished, a film seen; episodes grouped per show and day, game and reading sessions per work and day.
Ids are urn:uuid made from the account and the event, the same in every run and after any re-sync, and the feed's
updated date is its newest entry's: an unchanged library gives the same bytes.
Without --public the feed holds your notes (the web app keeps them private): stderr says so. The API's profile names
no field saying what is public, so --public keeps what a public page shows by nature (titles, dates, ratings, links,
reviews) and leaves out the entries' notes, reviews marked private (isPrivate, private, public: false, a visibility
other than public) and the text of reviews marked as spoilers (spoiler, containsSpoilers, hasSpoilers).
Needs Node ${'22.13'} or later (node:sqlite), like every command that reads the mirror: lk's single file carries its own
(the release binary, or npm run sea).
`,
  examples: [
    'lk feed > activity.atom',
    'lk feed --format json --domain BOOKS --limit 20 -o ~/site/books.json',
    '7 * * * *  LK_API_KEY_FILE=$HOME/.config/lk/key /usr/local/bin/lk feed -q --sync --public -o /var/www/site/activity.atom',
  ],
  run: runFeed,
});

export function registerFeed(program: Command): void {
  addCommand(program, feedCommand);
}

async function runFeed(ctx: Context, out: OutputSession, options: OptionsOf<typeof FEED_FLAGS>): Promise<Document> {
  // Everything checked before the mirror is opened or the server asked: a typo in a crontab fails at once.
  // Atom unless JSON is asked for: the shape's default, and the wrapper has refused every other format.
  const format = out.format() as 'atom' | 'json';
  const limit = options.limit;
  const since = options.since === undefined ? undefined : dateBound(options.since.at(ctx.now()), 'start');
  return document({
    format,
    async make() {
      if (options.sync) await runSync(ctx, { db: options.db });
      // --public: the engine's public projection, as lk serve's /feed.atom and /feed.json read it (the same bytes).
      const host = commandHost(ctx, { db: options.db, what: 'lk feed', audience: options.public ? 'public' : 'owner' });
      const feed = await feedReading(host, { format, limit, domain: options.domain?.toUpperCase(), since });
      if (feed.withNotes > 0) ctx.io.info(words.notesIncludedNotice(feed.withNotes));
      return {
        data: feed.text,
        // A file that holds exactly this feed keeps its time: a static site's upload or a web server's ETag sees no change.
        keepIdentical: true,
        empty: feed.entries === 0 ? words.emptyFeedNotice() : undefined,
        said: ({ to, paths: [path] }) => {
          if (to === 'unchanged') return [words.feedUnchangedNotice(path!, feed.entries)];
          return to === 'files' ? [words.feedWrittenNotice(path!, feed.entries, format)] : [];
        },
      };
    },
  });
}
