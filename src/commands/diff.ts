import type { Command } from 'commander';
import type { Context } from '../context.js';
import type { ExportDiff } from '../diff/model.js';
import type { DiffSource } from '../diff/compare.js';
import { resource, type Resource } from '../output/result.js';
import type { OutputSession } from '../output/session.js';
import { SCREEN } from '../output/shape.js';
import { SilentExit, UsageError } from '../util/errors.js';
import { addCommand, defineCommand, operand } from './define.js';
import { flag, type OptionsOf } from './flags.js';
import { openMirrorHere } from './offline.js';
import { DB_FLAG } from './options.js';
import { plus, TERMINAL_ONLY } from './uses.js';

const DIFF_FLAGS = {
  exitCode: flag.toggle('--exit-code', 'exit 1 when anything differs, 0 when nothing does (as git diff --exit-code)'),
  ...DB_FLAG,
};
type DiffOptions = OptionsOf<typeof DIFF_FLAGS>;

/** `lk diff OLD [NEW]`: what changed between two exports, or between an export and the mirror. */
const diffCommand = defineCommand({
  name: 'diff',
  uses: plus(TERMINAL_ONLY, 'verbose'),
  description: 'what changed between two exports (or an export and the mirror): entries, history, lists, reviews',
  output: SCREEN,
  flags: DIFF_FLAGS,
  operands: [operand('<old>', 'an export written by lk export (plain or .gz)'), operand('[new]', 'a later export; without it, the mirror')] as const,
  help: `
Entries are matched by id: added, removed, and changed with each field's before and after. History events added and
removed are counted per domain (listed with --verbose, and in --json). Lists and reviews: added, removed, changed.
Files are read as they stream (a gzip file is told by its content, not its name). Without NEW the comparison is
with the mirror that lk sync keeps (needs Node 22.13 or later, for node:sqlite, or lk's single file, which carries its
own Node).
--json prints {added, removed, changed, history, lists, reviews}; --fields and --jq apply to it.
`,
  examples: [
    'lk diff ~/backups/lk/yesterday.json.gz ~/backups/lk/today.json.gz',
    'lk diff last-week.json                  # against the mirror',
    "lk diff old.json new.json --json --jq '.changed[] | .title'",
    'lk diff old.json new.json --exit-code -q || echo "something changed"',
  ],
  run: runDiff,
});

export function registerDiff(program: Command): void {
  addCommand(program, diffCommand);
}

async function runDiff(ctx: Context, _out: OutputSession, options: DiffOptions, [oldPath, newPath]: [string, string | undefined]): Promise<Resource> {
  if (oldPath === '' || newPath === '') throw new UsageError('lk diff needs file names: lk diff OLD [NEW]');
  if (newPath !== undefined && options.db !== undefined) throw new UsageError('--db is for comparing with the mirror: leave out NEW, or --db');
  let diff: ExportDiff | undefined;
  const { isEmptyDiff } = await import('../diff/model.js');
  return resource(async () => (diff = await computeDiff(ctx, options, oldPath, newPath)), {
    screen: async (value, output) => {
      const { diffText } = await import('../diff/view.js');
      return diffText(value as ExportDiff, { colors: output.display.colors, width: output.io.columns, verbose: ctx.io.verbose });
    },
    // As git diff --exit-code: 1 for "differs", with the output already written (and --jq applied).
    failure: () => (options.exitCode && diff !== undefined && !isEmptyDiff(diff) ? new SilentExit(1) : undefined),
  });
}

async function computeDiff(ctx: Context, options: DiffOptions, oldPath: string, newPath: string | undefined): Promise<ExportDiff> {
  const { compareSources } = await import('../diff/compare.js');
  const { exportFileSource } = await import('../diff/export-file.js');
  if (newPath !== undefined) return compareSources(exportFileSource(oldPath), exportFileSource(newPath));
  const db = await openMirrorHere(ctx, options.db, 'lk diff without NEW (it compares with the mirror)');
  try {
    const { mirrorAsExport } = await import('../mirror/export-shape.js');
    const mirror: DiffSource = { label: 'the mirror', batches: () => toAsync(mirrorAsExport(db)) };
    return await compareSources(exportFileSource(oldPath), mirror);
  } finally {
    db.close();
  }
}

async function* toAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  yield* items;
}
