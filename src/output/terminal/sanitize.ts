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

// What a terminal acts on, but tab and newline: C0 controls (ESC, BEL, CR…), DEL, C1 controls (U+009B is an 8-bit
// CSI), and the bidi controls that reorder what is shown.
const TERMINAL_ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Exact formats (json, csv, `lk api`) on a terminal: each such character shown as a \uXXXX escape instead of acted on.
 * Inside a JSON string that is the same value, written another way; in a pipe or a file nothing is changed.
 */
export function escapeForTerminal(text: string): string {
  return text.replace(TERMINAL_ACTIVE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// What XML 1.0 cannot hold at all (C0 controls but tab, newline and CR; U+FFFE, U+FFFF; a surrogate without its pair),
// and what a terminal or a text direction obeys (DEL, C1 controls, the bidi overrides and isolates).
const NOT_FOR_FEEDS =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Text for a feed (Atom or JSON Feed): every character above removed, not replaced, so that a feed reader shows the
 * words and an XML parser never meets a character the format forbids. Line breaks are kept (paragraphs).
 */
export function feedText(text: string): string {
  return text.replace(NOT_FOR_FEEDS, '').replace(/\r\n?/g, '\n');
}
