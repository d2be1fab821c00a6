import type { Command } from 'commander';
import { documentShape } from '../output/shape.js';
import type { Context } from '../context.js';
import { LkError, UsageError } from '../util/errors.js';
import type { OutputSession } from '../output/session.js';
import { document, type Document } from '../output/result.js';
import { addCommand, defineCommand } from './define.js';
import { flag, type OptionsOf } from './flags.js';
import { commandHost } from './readings.js';
import { reviewPage, reviewPeriod, yearInReview } from '../readings/composed.js';
import { DB_FLAG } from './options.js';
import { runSync } from './sync.js';
import { mirrorOr } from './uses.js';
import { defaultFileName } from '../report/period.js';
import { loadSqlite } from '../mirror/open.js';
import { noActivityHint } from '../report/page-words.js';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { browserFor, openInBrowser } from '../output/terminal/browser.js';

const REPORT_FLAGS = {
  year: flag.text('--year <yyyy>', 'the year to review (default: the last complete year; this year so far in December)'),
  from: flag.text('--from <date>', 'first day of the period instead: 2025-03-01, 30d, 2w, yesterday'),
  to: flag.text('--to <date>', 'last day of the period, included (2025-08-31, 7d, yesterday; default today)'),
  output: flag.text('-o, --output <file>', 'where the page goes (default lk-report-YYYY.html here), whole or not at all; - for stdout'),
  open: flag.toggle('--open', 'open the page in your browser once written (BROWSER, as lk open does)'),
  sync: flag.toggle('--sync', 'bring the mirror up to date first (lk sync)'),
  ...DB_FLAG,
};

/** `lk report`: a year (or any days) in review from the mirror, as an HTML page or its figures as JSON. */
const reportCommand = defineCommand({
  name: 'report',
  uses: mirrorOr('sync'),
  description: 'a year in review from the mirror: one HTML file to open, print and keep (or its figures with --json)',
  output: documentShape(['html', 'json'], 'html'),
  flags: REPORT_FLAGS,
  help: `
Made from the mirror alone (lk sync): nothing is sent anywhere, and the page loads nothing (its charts are drawn
into it, no script, no font or image from elsewhere). Days, months and weekdays are the account's (its profile's
time zone). --json prints the same figures as JSON, to stdout or -o FILE.
`,
  examples: [
    'lk report',
    'lk report --year 2024 --open',
    'lk report --from 2025-06-01 --to 2025-08-31 -o summer.html',
    'lk report --from 30d --json | jq .total',
    'lk report --json | jq .total.events',
  ],
  run: runReport,
});

export function registerReport(program: Command): void {
  addCommand(program, reportCommand);
}

async function runReport(ctx: Context, out: OutputSession, options: OptionsOf<typeof REPORT_FLAGS>): Promise<Document> {
  // HTML unless JSON is asked for: the shape's default, and the wrapper has refused every other format.
  const json = out.format() === 'json';
  if (json && options.open) throw new UsageError('--open opens the HTML page: it does not go with --json');
  const host = commandHost(ctx, { db: options.db, what: 'lk report' });
  const period = reviewPeriod(host, options);
  loadSqlite('lk report');
  return document({
    format: json ? 'json' : 'html',
    // The page goes to a file of its own unless -o - says stdout; the figures to stdout.
    file: json ? undefined : defaultFileName(period),
    terminal: 'exact',
    async make() {
      if (options.sync) await runSync(ctx, { db: options.db });
      const review = await yearInReview(host, options);
      if (review.empty) {
        throw new LkError(
          `nothing to review: the mirror holds no dated event and no finished work from ${period.from} to ${period.to}`,
          1,
          noActivityHint(review.datedSpan),
        );
      }
      return {
        data: json ? `${JSON.stringify(review.figures, null, 2)}\n` : await reviewPage(review),
        after: async ({ to, paths: [path] }) => {
          if (options.open && to === 'files') await openPage(ctx, out, path!);
        },
      };
    },
  });
}

async function openPage(ctx: Context, out: OutputSession, path: string): Promise<void> {
  const url = pathToFileURL(resolve(path)).href;
  const browser = browserFor(out.io, ctx.env);
  if ('print' in browser) {
    ctx.io.info(`lk: not opening a browser (${browser.print}); the page is ${url}`);
    return;
  }
  await openInBrowser(browser.command, url, ctx.env);
}
