import stringWidth from 'string-width';

/** Display width: East Asian wide characters and emoji take two cells, ANSI colours none. */
export function displayWidth(text: string): number {
  return stringWidth(text);
}

/** Cuts text to at most `width` cells, ending with … when anything was cut. */
export function truncate(text: string, width: number): string {
  if (width <= 0) return '';
  if (displayWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const char of text) {
    const w = displayWidth(char);
    if (used + w > width - 1) break;
    out += char;
    used += w;
  }
  return `${out}…`;
}

/** Pads with spaces to `width` display cells (padEnd counts UTF-16 units, which misaligns wide characters). */
export function padToWidth(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

/**
 * Text longer than any terminal line could show, cut before it is measured: measuring costs time in proportion to the
 * length, and a 40,000-character title of emoji and combining marks, measured again for every layout step, held a
 * table (and Ctrl-C) for a minute. `cells` is the most that will be shown; 16 UTF-16 units a cell leaves room for
 * the longest clusters in use. Ends with … when cut.
 */
export function cutForDisplay(text: string, cells: number): string {
  const max = Math.max(256, cells * 16);
  if (text.length <= max) return text;
  // Not inside a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(text[max - 1]!) ? max - 1 : max;
  return `${text.slice(0, end)}…`;
}
