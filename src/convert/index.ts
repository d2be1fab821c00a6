/**
 * `lk convert` as a library: an account snapshot (raw items as the server sent them) → the files another service
 * imports, and a tally of what was written, skipped (with why) and left out on purpose. Pure: no I/O, no clock.
 */
import { goodreads } from './goodreads.js';
import { letterboxd } from './letterboxd.js';
import { mal } from './mal.js';
import { readEntries, type AccountSnapshot } from './model.js';
import { csvLine } from './csv.js';
import { plural, ratingScale, Tally, type ConvertOptions, type ConvertResult, type Target } from './common.js';
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

/** The stderr summary: rows written, skipped and why, left out, notes; one fact a line. */
export function summaryLines(result: ConvertResult, unmatchedFile?: string): string[] {
  const { tally } = result;
  const lines = [
    `lk: ${result.target}: ${tally.rowsWritten} row${tally.rowsWritten === 1 ? '' : 's'} written${result.files.length > 1 ? ` in ${result.files.length} files` : ''}`,
  ];
  for (const [kind, count] of tally.written) lines.push(`  ${count} ${kind}`);
  if (tally.rowsSkipped > 0) {
    lines.push(`lk: ${tally.rowsSkipped} skipped:`);
    for (const [reason, count] of tally.skipped) lines.push(`  ${count} ${reason}`);
  }
  for (const [reason, count] of tally.leftOut) lines.push(`lk: left out ${count} ${reason}`);
  if (tally.rowsSetAside > 0) {
    const where = unmatchedFile === undefined ? 'not written (with -o FILE they go to FILE-unmatched.csv)' : `written to ${unmatchedFile}`;
    lines.push(`lk: ${plural(tally.rowsSetAside, 'row')} the importer would fail on or drop, ${where}:`);
    for (const [reason, rows] of tally.setAside) lines.push(`  ${rows.length} ${reason}`);
  }
  if (tally.rowsByTitle > 0) {
    lines.push(`lk: ${plural(tally.rowsByTitle, 'row')} the importer can only match by title:`);
    for (const [kind, count] of tally.byTitle) lines.push(`  ${count} ${kind}`);
  }
  if (tally.rowsGuessed > 0) {
    lines.push(`lk: ${plural(tally.rowsGuessed, 'row')} written with a value lk chose:`);
    for (const [what, count] of tally.guessed) lines.push(`  ${count} ${what}`);
  }
  if (result.scale)
    lines.push(`lk: ratings read on a ${result.scale.scale}-point scale (${result.scale.how}; --rating-scale 5|10|100 to say otherwise)`);
  for (const note of tally.notes) lines.push(`lk: note: ${note}`);
  return lines;
}
