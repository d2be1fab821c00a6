/**
 * Text from the server is printed to a terminal that obeys escape sequences: a title holding ESC]0;…BEL could
 * retitle the window, ESC[2J clear it, a carriage return overwrite a line. In tables, tsv and messages every such
 * character is made visible and harmless. JSON keeps them, escaped as JSON does.
 */
// C0 controls (but tab, newline and CR, handled below), DEL, C1 controls, and the bidi overrides that reorder text.
const DANGEROUS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const LINE_BREAKS = /[\t\n\r]/g;

export function sanitizeText(text: string): string {
  return text.replace(DANGEROUS, '\uFFFD').replace(LINE_BREAKS, ' ');
}

/** For messages that may span lines we keep newlines but still defuse everything else. */
export function sanitizeMessage(text: string): string {
  return text.replace(DANGEROUS, '\uFFFD').replace(/\r/g, ' ');
}

/** Spreadsheets run cells starting with = + - @ (or a tab/CR) as formulas: --csv-safe makes them text. */
export function csvSafeCell(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}
