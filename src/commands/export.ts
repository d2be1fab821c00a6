import type { Command } from 'commander';
import { documentShape } from '../output/shape.js';
import { exportCacheIn } from '../export/cache.js';
import { exportAccount, obtainExport, type ExportPolicy } from '../export/obtain.js';
import type { Context } from '../context.js';
import { UsageError } from '../util/errors.js';
import { downloadProgress } from '../output/terminal/download-progress.js';
import { exportName, rotateExports, type ExportKind } from '../export/rotation.js';
import { document, type Document } from '../output/result.js';
import type { OutputSession } from '../output/session.js';
import { addCommand, defineCommand } from './define.js';
import { flag, type OptionsOf } from './flags.js';
import { except, REQUESTS } from './uses.js';
import { completeExport } from '../export/complete.js';
import { failingAs } from '../util/output-file.js';
import * as encode from '../export/encode.js';
import * as git from '../export/git.js';

const EXPORT_FLAGS = {
  output: flag.text('-o, --output <file>', 'write the export to this file (whole or not at all)'),
  outputDir: flag.text('--output-dir <dir>', 'write lk-export-<account>-<UTC time fetched>.json (or a CSV folder) here'),
  keep: flag.count('--keep <n>', 'with --output-dir: then delete all but the N newest exports of this account and kind there', 1),
  gzip: flag.toggle('--gzip', 'compress what is written (.json.gz with --output-dir)'),
  maxAge: flag.duration('--max-age <duration>', 'oldest cached export accepted, e.g. 30m, 6h, 2d (default 1h)'),
  fresh: flag.toggle('--fresh', 'insist on a new export, asked of the server even within the hour: exit 5 when it refuses'),
  git: flag.text('--git <dir>', 'keep the export as a git repository there: one JSON file per collection, a commit when anything changed'),
};
type ExportOptions = OptionsOf<typeof EXPORT_FLAGS>;
/** stdout or the -o file (the wrapper's), a new entry in a backup folder, or a git repository. */
type ExportDestination = { to: 'output' } | { to: 'dir'; dir: string; keep: number | undefined } | { to: 'git'; dir: string };

/** `lk export`: the full data export, cached for the hour the server allows one. */
const exportCommand = defineCommand({
  name: 'export',
  uses: except(REQUESTS, { cache: 'it has its own cache: accept an older export with --max-age, e.g. lk export --max-age 6h' }),
  description: 'the full data export (cached: the server allows one per hour)',
  output: documentShape(['json', 'csv'], 'json', {
    jq: ['json'],
    header: ['csv'],
    csvSafe: ['csv'],
    instead: { '--fields': "it writes the whole export; pick parts with jq: lk export | jq '.library'" },
  }),
  flags: EXPORT_FLAGS,
  help: `
The export is cached per instance and account. Within the hour after an export, lk export answers from the cache
(and says so on stderr). When the server refuses a new export (another client used the hour), a cache within
--max-age is used instead; with --max-wait SECONDS lk waits for the hour instead. --format csv (with --output-dir)
writes one CSV per collection of the export into a timestamped folder. The profile, notifications and achievements
are read from their endpoints when the instance's export leaves them out (lk diff compares them).
--git DIR keeps the export as a git repository: library.json, history.json, lists.json, reviews.json, account.json
(whatever the export holds), pretty-printed, items by id and keys by name, so that git diff shows what changed line
by line. A commit is made only when something changed, dated at the export's time, with lk diff's one-line summary
as its message ("3 entries changed, 12 history events added"), by your git identity (else "lk <lk@localhost>"); a
collection the export no longer holds is deleted. DIR is created 0700 when missing, the repository private (objects
and files 0600). Refused with nothing written: a folder that is not empty and not a repository, one inside another
repository, uncommitted changes, a detached HEAD, an export of another account. The branch moves last; a run
stopped after that is finished by the next. The repository's hooks, fsmonitor and filters are not run. lk never
pushes: add "&& git -C DIR push" to the cron line for that. Needs git.
`,
  examples: [
    'lk export > backup.json',
    'lk export --output-dir ~/backups --keep 7 --gzip',
    'lk export --format csv --output-dir ~/backups',
    '0 3 * * *  LK_API_KEY_FILE=$HOME/.config/lk/key /usr/local/bin/lk export -q --output-dir $HOME/backups/lk --keep 14',
    '0 3 * * *  LK_API_KEY_FILE=$HOME/.config/lk/key /usr/local/bin/lk export -q --git $HOME/backups/lk-history',
  ],
  run: runExport,
});

export function registerExport(program: Command): void {
  addCommand(program, exportCommand);
}

async function runExport(ctx: Context, out: OutputSession, options: ExportOptions): Promise<Document | void> {
  // Every flag is checked before the first request: a typo in a crontab must not spend the export hour.
  const format = exportFormat(out);
  const destination = exportDestination(out, options, format);
  const policy = exportPolicy(ctx, options);
  // A repository is no document: its files and commit are made there (src/export/git.ts), nothing goes to stdout.
  if (destination.to === 'git') return exportToGit(ctx, destination.dir, policy);
  const gzip = Boolean(options.gzip);
  const csv = { header: out.flags.header !== false, csvSafe: ctx.settings.csvSafe(), gzip };
  const folder = destination.to === 'dir' ? destination : undefined;
  return document({
    format: gzip ? 'gzip' : format,
    folder: folder?.dir,
    terminal: gzip
      ? { refuse: new UsageError('--gzip would write binary to the terminal', 'Redirect it (> export.json.gz) or use -o FILE.') }
      : 'text',
    async make() {
      const { exported, account } = await fetchExport(ctx, policy);
      if (!folder) return { data: await encode.exportBytes(exported.text, gzip) };
      const kind: ExportKind = format === 'csv' ? 'folder' : gzip ? 'json.gz' : 'json';
      const name = exportName(account, exported.fetchedAt, kind);
      const { keep } = folder;
      const rotate = async () => (keep === undefined ? undefined : rotateFolder(ctx, folder.dir, keep, { account, kind, name }));
      if (format === 'csv') return { entry: { name, files: await encode.csvFolderFiles(exported.json, csv) }, after: rotate };
      return { data: await encode.exportBytes(exported.text, gzip), entry: { name }, after: rotate };
    },
  });
}

async function exportToGit(ctx: Context, dir: string, policy: ExportPolicy): Promise<void> {
  // git and the repository are checked before the export is fetched: a refusal must not spend the export hour.
  const target = await git.prepareGitTarget(dir, ctx.env);
  const { exported } = await fetchExport(ctx, policy);
  await git.commitExport(target, exported, ctx.io, ctx.env);
}

async function fetchExport(ctx: Context, policy: ExportPolicy) {
  const client = await ctx.client();
  const cache = exportCacheIn(ctx.usableCacheDir(), ctx.instance().baseUrl);
  const account = await exportAccount(client, (await ctx.key()).key);
  const progress = await downloadProgress(ctx.io, 'Downloading the export');
  const obtained = await obtainExport(
    {
      client,
      cache,
      account,
      io: ctx.io,
      now: ctx.now,
      wait: ctx.waiter(),
      signal: ctx.signal,
      onProgress: progress.update,
      onSettled: progress.stop,
    },
    policy,
  );
  // The profile, notifications and achievements, from their endpoints when the instance's export leaves them out.
  const exported = await completeExport(client, obtained, ctx.signal);
  return { exported, account };
}

/** --keep N: all but the N newest exports of this account and kind in the folder go, once the new one is in place. */
async function rotateFolder(ctx: Context, dir: string, keep: number, written: { account: string; kind: ExportKind; name: string }): Promise<void> {
  const { removed, future } = await failingAs(`the export was written, but rotating ${dir} failed`, () =>
    rotateExports(dir, written.account, written.kind, keep, written.name),
  );
  if (removed.length > 0)
    ctx.io.info(`lk: removed ${removed.length} older export${removed.length === 1 ? '' : 's'} (--keep ${keep}): ${removed.join(', ')}`);
  for (const other of future) ctx.io.warn(`lk: warning: kept ${other}: stamped in the future, after the export just written (is a clock wrong?)`);
}

/** json unless --format csv (or --csv) is named (the shape's default: a stored `lk config format` is for listings, not for backups). */
function exportFormat(out: OutputSession): 'json' | 'csv' {
  return out.format() as 'json' | 'csv';
}

/** --git, --output-dir or else stdout and -o (the wrapper's): checked before any request. */
function exportDestination(out: OutputSession, options: ExportOptions, format: 'json' | 'csv'): ExportDestination {
  if (options.git !== undefined) return gitDestination(options, format, out.flags.jq);
  if (options.output !== undefined && options.outputDir !== undefined) throw new UsageError('choose -o/--output or --output-dir, not both');
  if (options.keep !== undefined && options.outputDir === undefined)
    throw new UsageError('--keep needs --output-dir (it rotates the exports in that folder)');
  if (format === 'csv' && options.outputDir === undefined) {
    throw new UsageError(
      '--format csv needs --output-dir: it writes one file per collection of the export',
      'Use e.g. lk export --format csv --output-dir ~/backups',
    );
  }
  if (options.outputDir === '') throw new UsageError('--output-dir needs a path');
  if (options.outputDir !== undefined && out.flags.jq !== undefined)
    throw new UsageError('--jq prints to stdout: it does not combine with --output-dir');
  if (options.outputDir !== undefined) {
    return { to: 'dir', dir: options.outputDir, keep: options.keep };
  }
  return { to: 'output' };
}

/** --git writes a repository and nothing to stdout: the destinations and --jq (which filters stdout) do not combine. */
function gitDestination(options: ExportOptions, format: 'json' | 'csv', jq: string | undefined): { to: 'git'; dir: string } {
  const others = [
    ['--jq', jq],
    ['-o/--output', options.output],
    ['--output-dir', options.outputDir],
    ['--keep', options.keep],
    ['--gzip', options.gzip],
  ] as const;
  const clash = others.find(([, value]) => value !== undefined && value !== false);
  if (clash) throw new UsageError(`--git keeps the export in a repository; it does not combine with ${clash[0]}`);
  if (format === 'csv') throw new UsageError('--git keeps the export as JSON files; it does not combine with --format csv');
  if (options.git === '') throw new UsageError('--git needs a folder');
  return { to: 'git', dir: options.git! };
}

function exportPolicy(ctx: Context, options: ExportOptions): ExportPolicy {
  if (options.fresh && options.maxAge !== undefined) throw new UsageError('choose --fresh or --max-age, not both');
  const maxWait = ctx.settings.maxWaitSeconds(); // validates --max-wait even when it will not be needed
  return {
    fresh: Boolean(options.fresh),
    maxAgeMs: options.maxAge,
    // Only a wait the user asked for: the hour is long, and a cron job should fail and mail rather than hang.
    maxWaitSeconds: ctx.flags.maxWait !== undefined && ctx.flags.wait !== false ? maxWait : undefined,
  };
}
