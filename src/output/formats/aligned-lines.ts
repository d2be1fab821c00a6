import { displayWidth } from '../terminal/width.js';

/** What a row of cells is laid out with: each column's width in display cells and its side. */
export interface LineLayout {
  widths: number[];
  aligns: ('left' | 'right')[];
  /** Blanks after each column. */
  gap: number;
}

/**
 * Rows of cells as aligned, borderless lines: each cell padded to its column's width as a terminal shows it
 * (string-width: wide characters two cells, combining marks and colours none), `gap` blanks between columns, no
 * trailing blanks (they only get in the way of copy and paste). Cells arrive cut to their width: nothing is cut here.
 */
export function alignedLines(rows: string[][], { widths, aligns, gap }: LineLayout): string {
  if (rows.length === 0) return '';
  const lines = rows.map((row) =>
    row
      .map((cell, i) => {
        const blanks = ' '.repeat(Math.max(0, widths[i]! - displayWidth(cell)));
        return (aligns[i] === 'right' ? blanks + cell : cell + blanks) + ' '.repeat(gap);
      })
      .join('')
      .trimEnd(),
  );
  return `${lines.join('\n')}\n`;
}
