/**
 * `lk convert` as a library: an account snapshot (raw items as the server sent them) → the files another service
 * imports, and a tally of what was written, skipped (with why) and left out on purpose. Pure: no I/O, no clock.
 */
import { goodreads } from './goodreads.js';
import { letterboxd } from './letterboxd.js';
import { mal } from './mal.js';
import { readEntries, type AccountSnapshot } from './model.js';
import { convertSummary } from '../output/wording/convert-summary.js';
import { csvLine } from './csv.js';
import { ratingScale, Tally, type ConvertOptions, type ConvertResult, type Target } from './common.js';
import { yamtrack } from './yamtrack.js';

export { ScaleError, type ConvertOptions, type ConvertResult, type Target } from './common.js';
export type { AccountSnapshot } from './model.js';

/** File name extension per target. */
export const TARGET_EXTENSION: Record<Target, string> = { letterboxd: 'csv', goodreads: 'csv', yamtrack: 'csv', mal: 'xml' };

const CONVERTERS = { letterboxd, goodreads, yamtrack, mal } as const;

export function convert(target: Target, snapshot: AccountSnapshot, options: ConvertOptions = {}): ConvertResult {
  const tally = new Tally();
  const { entries, unmatched } = readEntries(snapshot);
  const scale = ratingScale(entries, options.ratingScale);
  const contents = CONVERTERS[target](entries, scale, options, tally);
  if (unmatched.entries > 0) tally.skip('library items that are not objects (unreadable)', unmatched.entries);
  if (unmatched.events > 0) tally.skip('history events that match no library entry', unmatched.events);
  if (unmatched.reviews > 0) tally.skip('reviews that match no library entry', unmatched.reviews);
  const files = contents.map((content, index) => ({ part: contents.length > 1 ? index + 1 : undefined, content }));
  return { target, files, unmatched: unmatchedCsv(tally), tally, scale };
}

/** The rows set aside, for a manual pass: why, then the target's own columns (those any of them has, in order). */
function unmatchedCsv(tally: Tally): string | undefined {
  const rows = [...tally.setAside].flatMap(([reason, list]) => list.map((row) => ({ reason, row })));
  if (rows.length === 0) return undefined;
  const columns = [...new Set(rows.flatMap(({ row }) => Object.keys(row)))];
  return csvLine(['reason', ...columns]) + rows.map(({ reason, row }) => csvLine([reason, ...columns.map((column) => row[column])])).join('');
}

/** The stderr summary (worded in src/output/wording/convert-summary.ts); `unmatchedFile` is where the rows set aside went. */
export function summaryLines(result: ConvertResult, unmatchedFile?: string): string[] {
  const { tally } = result;
  return convertSummary(
    {
      target: result.target,
      fileCount: result.files.length,
      written: tally.written,
      skipped: tally.skipped,
      leftOut: tally.leftOut,
      setAside: new Map([...tally.setAside].map(([reason, rows]) => [reason, rows.length])),
      byTitle: tally.byTitle,
      guessed: tally.guessed,
      notes: tally.notes,
      scale: result.scale,
    },
    unmatchedFile,
  );
}
