import type { Command } from 'commander';
import type { Context } from '../context.js';
import { DEFAULT_NEXT_LIMIT, MOST_NEXT_LIMIT, nextLimit, type NextAnswer } from '../readings/overview.js';
import { nextReading } from '../readings/composed.js';
import { READINGS } from '../readings/table.js';
import { UsageError } from '../util/errors.js';
import { formatCount } from '../util/units.js';
import type { Page } from '../api/paginate.js';
import type { IoStreams } from '../output/terminal/io.js';
import { listing, type Listing } from '../output/result.js';
import type { OutputSession } from '../output/session.js';
import { DATA } from '../output/shape.js';
import { addCommand, defineCommand } from './define.js';
import { flag, type OptionsOf } from './flags.js';
import { DOMAIN_FLAG, OFFLINE_FLAGS, OUTPUT_FLAG } from './options.js';
import { nextView } from '../output/wording/next-view.js';
import { commandHost, readingCommand } from './readings.js';
import { pageOf } from '../api/paginate.js';

const NEXT_FLAGS = {
  ...DOMAIN_FLAG,
  limit: flag.parsed('--limit <n>', `at most N entries, 1 to ${MOST_NEXT_LIMIT} (default ${DEFAULT_NEXT_LIMIT})`, nextLimit),
  all: flag.toggle('--all', 'every entry in progress'),
  random: flag.toggle('--random', 'one PLANNED entry picked at random instead'),
  seed: flag.count('--seed <n>', 'with --random: the same pick for the same N and library', 0),
  ...OFFLINE_FLAGS,
  ...OUTPUT_FLAG,
};
type NextOptions = OptionsOf<typeof NEXT_FLAGS>;

/** `lk next`: what to take up next. */
const nextCommand = defineCommand({
  name: 'next',
  description: 'what to take up next: your entries in progress, most recently active first (or --random, one planned)',
  output: DATA,
  flags: NEXT_FLAGS,
  help: `
Active means the newest dated event of the entry's history; entries with none come last, by title. Shows say how
many aired episodes you have not seen (Behind) and when the next one airs, from the calendar.
--random picks one entry you planned (PLANNED, BACKLOG, TO_READ, TO_LISTEN), each as likely as any other.
Online it reads the entries in progress, the calendar once, and only as much history as it needs.
`,
  examples: [
    'lk next',
    'lk next --domain BOOKS --limit 5',
    "lk next --all --json | jq -r '.[] | select(.episodesBehind > 0) | .title'",
    'lk next --random --domain MEDIA',
    'lk next --offline',
  ],
  run: runNext,
});

export function registerNext(program: Command): void {
  addCommand(program, nextCommand);
}

async function runNext(ctx: Context, _out: OutputSession, options: NextOptions): Promise<Listing> {
  // Everything checked before the mirror is opened or the server asked.
  if (options.all && options.limit !== undefined) throw new UsageError('--all and --limit: choose one');
  if (options.seed !== undefined && !options.random) throw new UsageError('--seed goes with --random', 'lk next --random --seed 7');
  if (options.random && (options.all || options.limit !== undefined)) throw new UsageError('--random picks one entry: it takes no --limit or --all');
  const limit = options.all ? undefined : (options.limit ?? DEFAULT_NEXT_LIMIT);
  const seed = options.seed;
  const domain = options.domain;
  const host = commandHost(ctx, { db: options.db, what: readingCommand(READINGS.next, Boolean(options.offline)) });
  let answer: NextAnswer = { items: [], total: null };
  // Read as the wrapper shows it: after the output flags and -o are checked.
  async function* pages(): AsyncGenerator<Page> {
    answer = await nextReading(host, { domain, limit, random: options.random, seed }, Boolean(options.offline));
    yield* pageOf(answer.items);
  }
  const after = (io: IoStreams) => {
    if (answer.total !== null && answer.total > answer.items.length && io.mayNotify) {
      const count = `${formatCount(answer.items.length)} of ${formatCount(answer.total)}`;
      const lines = [`Showing ${count} entries in progress: --all for every one`, `${count} in progress · --all`];
      io.info(lines.find((line) => [...line].length <= io.columns) ?? lines.at(-1)!);
    }
    if (options.random && answer.items.length === 0) {
      ctx.io.info(`lk: nothing to pick: no planned entry${domain === undefined ? '' : ` in ${domain}`}`);
    }
  };
  return listing(pages(), nextView, false, { after });
}
