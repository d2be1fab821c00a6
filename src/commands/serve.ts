import type { Command } from 'commander';
import type { Context } from '../context.js';
import { ExitCode, LkError, UsageError } from '../util/errors.js';
import { notAFile, readableByOthersWarning } from '../util/file-kind.js';
import { TEXT } from '../output/shape.js';
import type { OutputSession } from '../output/session.js';
import { service, type Service } from '../output/result.js';
import { addCommand, defineCommand } from './define.js';
import { flag, type OptionsOf } from './flags.js';
import { mirrorPath } from './offline.js';
import { DB_FLAG } from './options.js';
import { durationMs } from '../util/duration.js';
import { mirrorOr } from './uses.js';
import { isLoopback } from '../serve/own-name.js';
import type { SyncCost } from '../serve/sync-loop.js';
import { loadSqlite } from '../mirror/open.js';
import { runSync } from './sync.js';
import { givenUpLines, notifyMirror, notifyTargets, TO_FLAG } from './notify-run.js';
import { sanitizeText } from '../output/terminal/sanitize.js';
import type { Target } from '../notify/targets.js';
import { existsSync } from 'node:fs';
import { mirrorToKeepSynced } from '../mirror/sync.js';
import { startServe, type SyncTurns } from '../serve/index.js';
import { ADDRESSES } from '../serve/documents.js';
import { serveLog } from '../serve/log.js';
import { fallbackTimeZone } from '../report/time-zone.js';
import { constants, open } from 'node:fs/promises';
import { VERSION } from '../util/version.js';

const SERVE_FLAGS = {
  host: flag.text('--host <host>', 'the address to listen on (default 127.0.0.1; any other needs --token-file)'),
  port: flag.count('--port <n>', 'the port (default 8787; 0 picks a free one)', 0, 65535),
  syncEvery: flag.parsed('--sync-every <duration>', 'run lk sync in the background this often, e.g. 15m, 1h (needs the key)', syncInterval),
  tokenFile: flag.text('--token-file <file>', 'require the token in this file as ?token= or Authorization: Bearer'),
  mcp: flag.toggle('--mcp', "also serve lk mcp's MCP server at POST /mcp (Streamable HTTP), for assistants that reach lk over the network"),
  replace: flag.toggle('--replace', "with --sync-every: replace a mirror of another account with this key's (else refused, exit 1)"),
  notify: flag.toggle('--notify', 'with --sync-every: run lk notify after each sync (to --to, else the config list notify)'),
  ...TO_FLAG,
  ...DB_FLAG,
};
type ServeFlags = OptionsOf<typeof SERVE_FLAGS>;

/** `lk serve`: the mirror read-only over HTTP, for calendar apps, feed readers and dashboards. */
const serveCommand = defineCommand({
  name: 'serve',
  uses: mirrorOr('syncEvery'),
  description: 'serve the mirror read-only over HTTP: calendar, feed, status, next and reports for apps and dashboards',
  output: TEXT,
  flags: SERVE_FLAGS,
  help: `
Addresses (each the bytes of the command offline, the same again while the mirror is unchanged):
${ADDRESSES.map(({ path, command }) => `  ${path.padEnd(18)}  ${command}`).join('\n')}
  /                   an index linking them
  /mcp                with --mcp and --token-file: lk mcp's server over Streamable HTTP (POST; both revisions)
Every document address serves the public projection only: no notes, and no text of a private or spoiler review
(the feeds are the --public ones, /next.json has no notes). /mcp is not a document: it is the owner's surface, with
all that lk mcp reads (notes, private reviews, lk sql over the whole mirror), so it is served only with the token. A document's bytes and ETag change only when its data do: a sync
that changed nothing answers 304 to a client that asked before.
The first line on stdout is the address. On loopback it answers only to 127.0.0.1, localhost and [::1] (any
other Host: 421, so a web page cannot read it through a name of its own). Listening on anything but loopback needs
--token-file: the token (the file's first line) is then required as ?token=… (calendar apps send no headers) or
Authorization: Bearer …, whatever the Host.
--sync-every syncs at start (unless the mirror's last sync ended less than the budget's floor ago, below), then
every interval, as lk sync does: the export at most once an hour (a refusal remembered until its Retry-After),
the paginated endpoints in between; a failed sync is said on stderr and tried again next time, the last good
mirror still served. The account's budget a minute is shared by all its clients, so syncs are never closer than a
sync's requests over half that budget (the X-RateLimit-Limit the server reports): 33 requests against 60 a minute
make at least 66s. A shorter --sync-every is raised to it, said once on stderr; a 429's Retry-After is waited out.
A key of another account than the mirror's is refused at start (exit 1) unless --replace. SIGTERM or Ctrl-C: exit 0.
--mcp answers /mcp with the tools, resources and prompts of lk mcp, from the same mirror (never the API). It needs
--token-file wherever lk listens, loopback too (every user of this machine reaches loopback): without it, exit 2.
A browser's request whose Origin names anything but the address lk listens on (or 127.0.0.1, localhost, [::1]) is
refused with 403, so a web page cannot reach it by DNS rebinding; on loopback the Host must be one of those names
too, off loopback any Host is served (a LAN or Tailscale name, a reverse proxy's) once the token is right.
--notify (with --sync-every) runs lk notify after each sync, to --to URL (repeatable) or the config list notify:
every URL checked at start; a target that fails is said on stderr and gets what it missed after the next sync. The
notify turn runs beside the syncs, never holding them: one turn at a time, each delivery within --timeout.
`,
  examples: [
    'lk serve',
    'lk serve --sync-every 30m',
    'lk serve --mcp --port 8788 --token-file ~/.config/lk/serve-token',
    'lk serve --host 0.0.0.0 --port 8787 --token-file ~/.config/lk/serve-token --sync-every 1h',
    'lk serve --sync-every 1h --notify --to ntfys://ntfy.sh/my-lk-topic',
  ],
  run: runServe,
});

export function registerServe(program: Command): void {
  addCommand(program, serveCommand);
}

async function runServe(ctx: Context, _out: OutputSession, options: ServeFlags): Promise<Service> {
  // Everything checked before the mirror is opened or a port taken.
  const host = options.host ?? '127.0.0.1';
  if (host === '') throw new UsageError('--host needs an address');
  const port = options.port ?? 8787;
  if (options.tokenFile === undefined && !isLoopback(host))
    throw new UsageError(
      `--host ${host} is reachable from other machines: it needs --token-file`,
      'Put a long random token in a file: openssl rand -hex 24 > ~/.config/lk/serve-token',
    );
  // /mcp serves the notes, private reviews and the whole mirror through sql: loopback is reachable by every user of
  // the machine, so the token is what makes it the owner's, wherever lk listens.
  if (options.mcp && options.tokenFile === undefined)
    throw new UsageError(
      '--mcp serves the private data of the mirror (notes, private reviews, lk sql): it needs --token-file, on loopback too',
      'Put a long random token in a file: openssl rand -hex 24 > ~/.config/lk/serve-token',
    );
  const everyMs = options.syncEvery;
  if (options.notify && everyMs === undefined)
    throw new UsageError('--notify runs after each sync: it needs --sync-every', 'lk serve --sync-every 1h --notify');
  if (options.to !== undefined && !options.notify) throw new UsageError('--to names where --notify sends: add --notify (and --sync-every)');
  const targets = options.notify ? notifyTargets(ctx, options.to) : undefined;
  const token = options.tokenFile === undefined ? undefined : await readToken(options.tokenFile, (line) => ctx.io.warn(line));
  // Every line lk serve writes from here on goes through withoutSecrets (serve/log.ts): never the token in a journal.
  const log = serveLog((line) => ctx.io.warn(line), token);
  const tell = serveLog((line) => ctx.io.info(line), token);
  const dbPath = await mirrorPath(ctx, options.db);
  loadSqlite('lk serve');
  const replace = Boolean(options.replace);
  // The notify turn runs beside the sync loop, never in it: a slow target holds no sync back. A turn still running
  // when the next sync ends is not doubled; that sync's news goes with the turn after.
  let notifying: Promise<void> | undefined;
  const syncThenNotify = async (): Promise<SyncCost> => {
    const cost = await runSync(ctx, { db: options.db, replace });
    if (targets && notifying === undefined) {
      notifying = notifyAfterSync(ctx, targets, options.db, { tell, log }).finally(() => (notifying = undefined));
    }
    return cost;
  };
  // Its waits are the run's own (ctx.sleep): a timer, or a test's virtual clock.
  const sync: SyncTurns | undefined = everyMs === undefined ? undefined : { everyMs, run: syncThenNotify, sleep: ctx.sleep };
  if (sync) {
    const { key } = await ctx.key(); // no key: said now, not at the first sync
    if (!existsSync(dbPath)) sync.first = await sync.run();
    else {
      // Another account's key is refused now, before listening, rather than at every turn; the last sync's cost
      // against the budget last seen paces the turns, the first of them at once (sync-loop.ts).
      const client = await ctx.client();
      const { lastRequests, lastFinishedAt } = await mirrorToKeepSynced(dbPath, client, key, replace);
      if (lastRequests !== undefined)
        sync.last = { cost: { requests: lastRequests, perMinute: client.lastBudget?.limit }, finishedAt: lastFinishedAt };
    }
  }
  const timeZone = fallbackTimeZone(ctx.env, (line) => ctx.io.warn(line));
  return service({
    signal: ctx.signal,
    endsCleanly: true,
    async start() {
      const mcp = options.mcp ? await mcpServer(ctx, dbPath, timeZone, log) : undefined;
      const serving = await startServe({ dbPath, host, port, token, now: ctx.now, timeZone, sync, mcp, log });
      // The first line on stdout is the address: a script or a person waits for it.
      return {
        announce: `${serving.url}\n`,
        said: `lk: serving ${dbPath} read-only at ${serving.url}${mcp ? `, MCP at ${serving.url}mcp` : ''} (Ctrl-C to stop)`,
        stop: () => serving.close(),
      };
    },
  });
}

/** lk mcp's server for /mcp: its own file (dist/mcp.cjs, with the SDK), read only when --mcp asks for it. */
async function mcpServer(ctx: Context, dbPath: string, timeZone: string, log: (line: string) => void) {
  const { mcpOverHttp } = await import('../mcp/index.js');
  return mcpOverHttp({
    mirrorPath: dbPath,
    now: ctx.now,
    timeoutSeconds: ctx.settings.timeoutSeconds(),
    fallbackTimeZone: timeZone,
    live: undefined,
    version: VERSION,
    log,
  });
}

/** --notify's turn: a failed target said on stderr (it gets what it missed next turn); a failed run never stops serving. */
async function notifyAfterSync(
  ctx: Context,
  targets: readonly Target[],
  db: string | undefined,
  { tell, log }: { tell: (line: string) => void; log: (line: string) => void },
): Promise<void> {
  try {
    const { told, failed } = await notifyMirror(ctx, targets, { db, mode: 'send' });
    const sent = told.filter((message) => message.targets.some((target) => target.ok === true)).length;
    if (sent > 0) tell(`lk: serve: notified ${sent} message${sent === 1 ? '' : 's'}`);
    for (const { target, error } of failed)
      log(`lk: serve: notify: ${target} failed: ${sanitizeText(error)}; what it missed is sent after the next sync`);
    for (const line of givenUpLines(told)) log(line.replace(/^lk: notify:/, 'lk: serve: notify:'));
  } catch (error) {
    log(`lk: serve: notify failed (${sanitizeText(error instanceof Error ? error.message : String(error))}); tried again after the next sync`);
  }
}

function syncInterval(flag: string, raw: string): number {
  const ms = durationMs(raw);
  if (ms === undefined || ms < 1000) throw new UsageError(`invalid ${flag} "${raw}": expected a duration like 30s, 15m, 1h`);
  return ms;
}

/** The token file's first line; warned about when others can read it, as a key file is. */
async function readToken(file: string, warn: (line: string) => void): Promise<string> {
  if (file === '') throw new UsageError('--token-file needs a path');
  const { text, mode } = await readTokenFile(file);
  const token = text.split(/\r?\n/)[0]!.trim();
  if (token.length < 16 || /\s/.test(token))
    throw new UsageError(
      `--token-file ${file}: its first line must be a token of at least 16 characters, without spaces`,
      'openssl rand -hex 24 > FILE',
    );
  const warning = readableByOthersWarning('the token file', file, mode);
  if (warning) warn(warning);
  return token;
}

/** A token is a line: a few KB at most is read, so a file without end cannot fill memory. */
const MAX_TOKEN_FILE_BYTES = 4096;

/**
 * Opened without blocking and looked at through the open file (no race with a swap in between): a FIFO with no
 * writer, a device or a folder is one line naming it, exit 1, at once — as --db's mirror-file check does.
 */
async function readTokenFile(file: string): Promise<{ text: string; mode: number }> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new UsageError(`cannot read --token-file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    const stats = await handle.stat();
    const kind = notAFile(stats);
    if (kind !== undefined) throw new LkError(`--token-file ${file} ${kind}`, ExitCode.failure, 'Point --token-file at a file holding the token.');
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(MAX_TOKEN_FILE_BYTES), 0, MAX_TOKEN_FILE_BYTES, 0);
    return { text: buffer.subarray(0, bytesRead).toString('utf8'), mode: stats.mode & 0o777 };
  } finally {
    await handle.close();
  }
}
