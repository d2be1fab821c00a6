/**
 * The little of roff (man(7)) the pages need, escaped as groff wants it: a backslash as \e, a line that would start
 * with a control character (. or ') guarded with \&, and the hyphens of options and commands as \- so that `--phase`
 * copies and searches as typed (a plain - may be drawn as a hyphen, U+2010).
 */

/** Prose: hyphens that start an option or a range stay minus signs; those inside words (read-only) are hyphens. */
export function prose(text: string): string {
  const minus = escapeBackslashes(text).replace(/(?<=^|[\s(`'"=[|,/{]|-)-/g, '\\-');
  // `lk sync` in the help's words is a command to type: bold, as man pages show one.
  return guard(minus.replace(/`([^`]+)`/g, '\\fB$1\\fR'));
}

/** A term to show as typed (an option, a command, a line to copy): every hyphen a minus sign. */
export function literal(text: string): string {
  return guard(escapeBackslashes(text).replace(/-/g, '\\-'));
}

function escapeBackslashes(text: string): string {
  return text.replace(/\\/g, '\\e');
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

/** Lines to copy as they are (examples), indented, never filled or hyphenated. */
export function lines(text: readonly string[]): string {
  return ['.PP', '.RS 4', '.nf', ...text.flatMap((line) => shellLines(line, LINE_ROOM)).map((line) => literal(line)), '.fi', '.RE'].join('\n');
}

/** What an indented line has at 80 columns: the section's 7 and the block's 4 less. */
const LINE_ROOM = 68;

/**
 * A command line too long for the page, cut at a blank outside quotes and continued with a backslash, as a shell reads
 * it: still a command to copy. A line with no such blank stays whole.
 */
export function shellLines(line: string, room: number): string[] {
  if (line.length <= room) return [line];
  let quote: string | undefined;
  let cut = -1;
  // After the first word: a continuation's own indent is no place to cut.
  const start = line.length - line.trimStart().length;
  for (let at = start; at < room - 2; at++) {
    const char = line[at]!;
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === ' ' && line[at - 1] !== ' ') cut = at;
  }
  // None before the edge (a long quoted string first): the first one after it, for a line shorter than it was.
  for (let at = room - 2; cut === -1 && at < line.length; at++) {
    const char = line[at]!;
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === ' ' && line[at - 1] !== ' ' && line.slice(at).trim() !== '') cut = at;
  }
  if (cut === -1) return [line];
  return [`${line.slice(0, cut)} \\`, ...shellLines(`  ${line.slice(cut + 1).trimStart()}`, room)];
}
