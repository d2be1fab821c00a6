/**
 * The stderr summary of `lk convert`: rows written (by kind), skipped, left out on purpose, set aside for the
 * unmatched file, matched by title only, written with a value lk chose, the rating scale and the notes; one fact a
 * line, each count with its reason.
 */

/** What a conversion counted, each map by reason (or kind) in the order reasons first appeared. */
export interface ConvertCounts {
  target: string;
  fileCount: number;
  written: ReadonlyMap<string, number>;
  skipped: ReadonlyMap<string, number>;
  leftOut: ReadonlyMap<string, number>;
  setAside: ReadonlyMap<string, number>;
  byTitle: ReadonlyMap<string, number>;
  guessed: ReadonlyMap<string, number>;
  notes: readonly string[];
  scale: { scale: number; how: string } | undefined;
}

const total = (counts: ReadonlyMap<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);
const rows = (count: number) => `${count} row${count === 1 ? '' : 's'}`;

/** A heading with the total, then a line per reason; nothing when the total is 0. */
function section(heading: (count: number) => string, counts: ReadonlyMap<string, number>): string[] {
  const count = total(counts);
  return count === 0 ? [] : [`lk: ${heading(count)}:`, ...[...counts].map(([reason, n]) => `  ${n} ${reason}`)];
}

/** `unmatchedFile`: where the rows set aside were written, or undefined when they were not (no -o, or nothing written). */
export function convertSummary(counts: ConvertCounts, unmatchedFile: string | undefined): string[] {
  const written = total(counts.written);
  const where = unmatchedFile === undefined ? 'not written (with -o FILE they go to FILE-unmatched.csv)' : `written to ${unmatchedFile}`;
  return [
    `lk: ${counts.target}: ${rows(written)} written${counts.fileCount > 1 ? ` in ${counts.fileCount} files` : ''}`,
    ...[...counts.written].map(([kind, n]) => `  ${n} ${kind}`),
    ...section((count) => `${count} skipped`, counts.skipped),
    ...[...counts.leftOut].map(([reason, n]) => `lk: left out ${n} ${reason}`),
    ...section((count) => `${rows(count)} the importer would fail on or drop, ${where}`, counts.setAside),
    ...section((count) => `${rows(count)} the importer can only match by title`, counts.byTitle),
    ...section((count) => `${rows(count)} written with a value lk chose`, counts.guessed),
    ...(counts.scale
      ? [`lk: ratings read on a ${counts.scale.scale}-point scale (${counts.scale.how}; --rating-scale 5|10|100 to say otherwise)`]
      : []),
    ...counts.notes.map((note) => `lk: note: ${note}`),
  ];
}
