import type { Command } from 'commander';
import type { Context } from '../context.js';
import type { ExportDiff } from '../diff/model.js';
import type { Comparison, DiffSource, Uncompared } from '../diff/compare.js';
import type { OpenedExport } from '../diff/export-file.js';
import { resource, type Resource } from '../output/result.js';
import type { OutputSession } from '../output/session.js';
import { SCREEN } from '../output/shape.js';
import { SilentExit, UsageError } from '../util/errors.js';
import { addCommand, defineCommand, operand } from './define.js';
import { flag, type OptionsOf } from './flags.js';
import { commandHost } from './readings.js';
import { mirrorFor } from '../readings/host.js';
import { DB_FLAG } from './options.js';
import { plus, TERMINAL_ONLY } from './uses.js';
import { isEmptyDiff } from '../diff/model.js';
import { diffText } from '../diff/view.js';
import { compareSources } from '../diff/compare.js';
import { openExportFile } from '../diff/export-file.js';
import { mirrorAsExport, partsNotHeld } from '../mirror/export-shape.js';

const DIFF_FLAGS = {
  exitCode: flag.toggle('--exit-code', 'exit 1 when anything differs, 0 when nothing does (as git diff --exit-code)'),
  ...DB_FLAG,
};
type DiffOptions = OptionsOf<typeof DIFF_FLAGS>;

/** `lk diff OLD [NEW]`: what changed between two exports, or between an export and the mirror. */
const diffCommand = defineCommand({
  name: 'diff',
  uses: plus(TERMINAL_ONLY, 'verbose'),
  description: 'what changed between two exports (or an export and the mirror): everything an export holds',
  output: SCREEN,
  flags: DIFF_FLAGS,
  operands: [
    operand('<old>', 'an export written by lk export (plain or .gz; - for stdin)'),
    operand('[new]', 'a later export (- for stdin); without it, the mirror'),
  ] as const,
  help: `
Entries are matched by id: added, removed, and changed with each field's before and after. History events added,
removed and changed in place (a date or minutes corrected) are counted per domain (listed with --verbose, and in
--json). Lists, reviews, notifications and achievements: added, removed, changed; the profile: its fields. A part
one side does not hold (an export from an older lk, or an instance that leaves it out) is not compared, and a line
on stderr says so. Files are read as they stream (a gzip file is told by its content, not its name); - reads stdin,
and a pipe such as <(lk export) is read as it comes. Without NEW the comparison is with the mirror that lk sync
keeps (needs Node 22.13 or later, for node:sqlite, or lk's single file, which carries its own Node); what its last
sync could not read (a 403 or 404) is not compared, and said on stderr. Items of one id within one export are named
on stderr (a line per side), and all of them compared (paired one to one by id).
--json prints {added, removed, changed, history, lists, reviews, profile, notifications, achievements}; --fields and
--jq apply to it.
`,
  examples: [
    'lk diff ~/backups/lk/yesterday.json.gz ~/backups/lk/today.json.gz',
    'lk diff last-week.json                  # against the mirror',
    "lk diff old.json new.json --json --jq '.changed[] | .title'",
    'lk diff old.json new.json --exit-code -q || echo "something changed"',
  ],
  run: runDiff,
});

/** Printed after any usage error of lk diff (a missing operand above all). */
const USAGE = 'Usage: lk diff OLD [NEW] [--exit-code] [--json]   (lk diff --help for more)';

export function registerDiff(program: Command): void {
  addCommand(program, diffCommand).showHelpAfterError(USAGE);
}

async function runDiff(ctx: Context, _out: OutputSession, options: DiffOptions, [oldPath, newPath]: [string, string | undefined]): Promise<Resource> {
  if (oldPath === '' || newPath === '') throw new UsageError('lk diff needs file names: lk diff OLD [NEW]');
  if (newPath !== undefined && options.db !== undefined) throw new UsageError('--db is for comparing with the mirror: leave out NEW, or --db');
  if (oldPath === '-' && newPath === '-') throw new UsageError('only one of OLD and NEW can be - (stdin)');
  if ((oldPath === '-' || newPath === '-') && ctx.io.stdinIsTTY) {
    throw new UsageError('- reads an export from stdin, and stdin is a terminal', 'Pipe one in: lk export | lk diff old.json -');
  }
  let comparison: Comparison | undefined;
  const diff = () => comparison?.diff;
  return resource(
    async () => {
      comparison = await computeDiff(ctx, options, oldPath, newPath);
      for (const { label, said } of comparison.duplicates) {
        ctx.io.warn(`lk: warning: ${label} has items of the same id (${said}); all of them are compared`);
      }
      const line = uncomparedLine(comparison.uncompared);
      if (line) ctx.io.warn(line);
      return comparison.diff;
    },
    {
      screen: async (value, output) => {
        return diffText(value as ExportDiff, {
          colors: output.display.colors,
          width: output.io.columns,
          verbose: ctx.io.verbose,
          eventTitle: comparison?.eventTitle,
        });
      },
      // As git diff --exit-code: 1 for "differs", with the output already written (and --jq applied).
      failure: () => (options.exitCode && diff() !== undefined && !isEmptyDiff(diff()!) ? new SilentExit(1) : undefined),
    },
  );
}

/**
 * "lk: not compared: old.json holds no notifications, achievements, profile (an export from an older lk, or an
 * instance that leaves them out)"; the mirror says why it lacks one ("the mirror holds no notifications (its last
 * sync could not read them)").
 */
function uncomparedLine(uncompared: Uncompared[]): string | undefined {
  if (uncompared.length === 0) return undefined;
  const byLabel = new Map<string, { parts: string[]; because: string }>();
  for (const { part, lacking, because } of uncompared) {
    const said = byLabel.get(lacking) ?? { parts: [], because: because ?? 'an export from an older lk, or an instance that leaves them out' };
    said.parts.push(part);
    byLabel.set(lacking, said);
  }
  const said = [...byLabel].map(([label, { parts, because }]) => `${label} holds no ${parts.join(', ')} (${because})`).join('; ');
  return `lk: not compared: ${said}`;
}

async function computeDiff(ctx: Context, options: DiffOptions, oldPath: string, newPath: string | undefined): Promise<Comparison> {
  // A folder, a device or a FIFO nobody writes to is named now, before anything is read (a FIFO would block for ever).
  const opened: OpenedExport[] = [];
  const open = async (path: string) => {
    const file = await openExportFile(path, ctx.io.stdin);
    opened.push(file);
    return file.source;
  };
  try {
    if (newPath !== undefined) return await compareSources(await open(oldPath), await open(newPath));
    // The mirror first: where it cannot be read (Node 20), that is the one thing to say.
    // Opened as the readings open it (its age said), closed once the run is done.
    const db = await mirrorFor(commandHost(ctx, { db: options.db, what: 'lk diff without NEW (it compares with the mirror)' }));
    // What the mirror's last sync could not read is not compared, as a part an export lacks is not.
    const notHeld = partsNotHeld(db);
    const mirror: DiffSource = {
      label: 'the mirror',
      batches: () => toAsync(mirrorAsExport(db, new Set(notHeld.parts))),
      lacksBecause: notHeld.why,
    };
    return await compareSources(await open(oldPath), mirror);
  } finally {
    for (const file of opened) file.close();
  }
}

async function* toAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  yield* items;
}
