import type { Command } from 'commander';
import { TEXT } from '../output/shape.js';
import type { Context } from '../context.js';
import { addCommand, defineCommand } from './define.js';
import { flag } from './flags.js';
import { mirrorPath } from './offline.js';
import { DB_FLAG } from './options.js';
import { REQUESTS } from './uses.js';
import type { SyncCost } from '../serve/sync-loop.js';
import { loadSqlite } from '../mirror/open.js';
import { syncMirror } from '../mirror/sync.js';
import { exportCacheIn } from '../export/cache.js';
import { statusLine } from '../output/terminal/progress.js';
import { VERSION } from '../util/version.js';
import { formatDuration } from '../util/units.js';

/** `lk sync`: the local SQLite mirror of the account, created or brought up to date. */
const syncCommand = defineCommand({
  name: 'sync',
  uses: REQUESTS,
  description: 'create or update the local SQLite mirror of your account (then lk search, lk sql, --offline)',
  output: TEXT,
  flags: {
    ...DB_FLAG,
    full: flag.toggle('--full', 'ignore a cached export and read every page, never only what changed: the server as it is now, every row compared'),
    replace: flag.toggle('--replace', "replace a mirror of another account with this key's account (else refused, exit 1)"),
  },
  help: `
The mirror is one SQLite file per profile: $LK_DATA_DIR/<profile>.db, else $XDG_DATA_HOME/lk/<profile>.db,
else ~/.local/share/lk/<profile>.db (--db FILE to choose). Any tool opens it: sqlite3, Datasette, Python.
It comes from one GET /v1/export when the server's hour allows (or from the export lk export just cached, at no
request). Within the hour, a mirror of the account is brought up to date from what changed since its last sync: the
history since, the entries added since, each entry those events touch, and the collections of a page or two; what
no listing shows (a rating, notes or a status set without an event, removed entries, a collection too large) waits
for the next export, said in one line. A new mirror and --full read every page; calendar and stats are read each
time. Each sync is one transaction:
an interrupted sync leaves the previous mirror. A second sync of the same mirror at the same time (cron's beside
lk serve --sync-every) waits for the first, said in one line, at most 10 minutes: then it gives up, exit 1, with
"another lk sync (pid N) is updating FILE and has not finished in 10m: this sync gave up, nothing written".
A mirror holds one account: a key of another account than the mirror's is refused (exit 1, naming both, nothing
written) unless --replace says to replace it. A 429 on the export is remembered in the cache folder until its
Retry-After: until then syncs read what changed and say when the export is possible.
Needs Node ${'22.13'} or later (node:sqlite), or lk's single file, which carries its own Node (the release binary, or
npm run sea). Schema: lk sql --schema.
`,
  examples: [
    'lk sync',
    'lk search amelie',
    'lk sql "SELECT phase, count(*) FROM entries GROUP BY phase"',
    '15 * * * *  LK_API_KEY_FILE=$HOME/.config/lk/key /usr/local/bin/lk sync -q',
    'datasette ~/.local/share/lk/default.db',
  ],
  async run(ctx, _out, options) {
    await runSync(ctx, options);
  },
});

export function registerSync(program: Command): void {
  addCommand(program, syncCommand);
}

export async function runSync(
  ctx: Context,
  options: { db?: string | undefined; full?: boolean | undefined; replace?: boolean | undefined },
): Promise<SyncCost> {
  const dbPath = await mirrorPath(ctx, options.db);
  loadSqlite('lk sync');
  const client = await ctx.client();
  const part = statusLine(ctx.io)?.open();
  part?.set('Syncing the mirror…');
  let result;
  try {
    result = await syncMirror({
      dbPath,
      full: Boolean(options.full),
      replace: Boolean(options.replace),
      client,
      io: ctx.io,
      cache: exportCacheIn(ctx.usableCacheDir(), ctx.instance().baseUrl),
      baseUrl: ctx.instance().baseUrl,
      key: (await ctx.key()).key,
      profile: ctx.settings.profileName,
      now: ctx.now,
      wait: ctx.waiter(),
      signal: ctx.signal,
      version: VERSION,
      onProgress: part ? (text) => part.set(`Syncing: ${text}`) : undefined,
    });
  } finally {
    part?.close();
  }
  const n = (value: number) => value.toLocaleString('en-US');
  const from = {
    export: 'the export',
    'export-cache': 'the cached export',
    pages: 'the paginated endpoints',
    changes: 'what changed since the last sync',
  }[result.source];
  ctx.io.info(
    `lk: synced ${dbPath} from ${from} in ${formatDuration((result.finishedAt - result.startedAt) / 1000)}, ${n(result.requests)} request${result.requests === 1 ? '' : 's'}: ` +
      `${n(result.rows.entries ?? 0)} entries, ${n(result.rows.history ?? 0)} events (+${n(result.counts.added)} ~${n(result.counts.changed)} -${n(result.counts.removed)} rows)`,
  );
  return { requests: result.requests, perMinute: client.lastBudget?.limit };
}
