import { fitLines } from './fit-lines.js';

/**
 * The little of roff (man(7)) the pages need, escaped as groff wants it: a backslash as \e, a character beyond ASCII
 * as \[uXXXX], a line that would start with a control character (. or ') guarded with \&, and the hyphens of options
 * and commands as \- so that `--phase` copies and searches as typed (a plain - may be drawn as a hyphen, U+2010).
 */

/** Prose: hyphens that start an option or a range stay minus signs; those inside words (read-only) are hyphens. */
export function prose(text: string): string {
  const minus = escapeText(text).replace(/(?<=^|[\s(`'"=[|,/{]|-)-/g, '\\-');
  // `lk sync` in the help's words is a command to type: bold, as man pages show one.
  return guard(minus.replace(/`([^`]+)`/g, '\\fB$1\\fR'));
}

/** A term to show as typed (an option, a command, a line to copy): every hyphen a minus sign. */
export function literal(text: string): string {
  return guard(escapeText(text).replace(/-/g, '\\-'));
}

/**
 * A backslash as \e, and every character beyond ASCII as groff's \[uXXXX] (what preconv writes): roff sources are
 * ASCII, so the page reads the same whatever encoding man assumes, and `groff -ww` has no input character to warn of.
 */
function escapeText(text: string): string {
  return text.replace(/\\/g, '\\e').replace(/[^\0-\x7f]/gu, (char) => `\\[u${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`);
}

/** A line of roff must not start with . or ' (a request), nor, for our pages, with a space (a break). */
function guard(text: string): string {
  return text.replace(/^[.' ]/gm, (char) => `\\&${char}`);
}

/** The page's title line: NAME(1), the footer's source and manual. */
export function titleLine(name: string, version: string): string {
  // Left-aligned and never hyphenated, as gh's pages are: option names and commands stay whole.
  return `.TH ${literal(name.toUpperCase())} 1 "" "lk ${version}" "lk manual"\n.nh\n.ad l`;
}

export function section(title: string): string {
  return `.SH ${prose(title.toUpperCase())}`;
}

export function subsection(title: string): string {
  return `.SS ${prose(title)}`;
}

export function paragraph(text: string): string {
  return `.PP\n${prose(text)}`;
}

/** A tagged paragraph: the term in bold (its placeholders in italics), its description under it. */
export function item(term: string, description: string, seePage?: string): string {
  const styled = literal(term).replace(/(<[^>]+>|\[[^\]]+\])/g, '\\fI$1\\fB');
  const see = seePage ? `; see ${pageReference(seePage)}` : '';
  return `.TP\n\\fB${styled}\\fR\n${prose(description || ' ')}${see}`;
}

/** lk-library(1), in bold, as a reference to another page. */
export function pageReference(page: string): string {
  return `\\fB${literal(page)}\\fR(1)`;
}

/** Lines to copy as they are (examples), indented, never filled or hyphenated; a cut crontab line says to join it. */
export function lines(text: readonly string[]): string {
  const fitted = fitLines(text, LINE_ROOM);
  const block = ['.PP', '.RS 4', '.nf', ...fitted.lines.map((line) => literal(line)), '.fi', '.RE'].join('\n');
  if (!fitted.crontabCut) return block;
  return `${block}\n${paragraph('A crontab line (five schedule fields first) is one line in the crontab: join the lines indented under it, as cron reads no continuation.')}`;
}

/** What an indented line has at 80 columns: the section's 7 and the block's 4 less. */
const LINE_ROOM = 68;
