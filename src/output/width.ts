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
