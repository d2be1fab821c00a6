/**
 * Lines shown as they are (examples, the tables of a command's notes) fitted to the room a man page has for them at
 * 80 columns, each as what it is, so that what a reader copies still works:
 * - a command with a comment after it (`lk sync -q   # quiet`): the comment goes on lines of its own above it;
 * - a crontab line (five schedule fields first): cut at blanks, the rest indented under it and never ended with a
 *   backslash, since cron reads no continuation: the page then says to join them (`crontabCut`);
 * - a row of a two-column table (`name   what it is`): its words wrapped under its second column;
 * - any other line is a shell command: cut at a blank outside quotes and continued with a backslash, as sh reads it.
 * A line with no blank to cut at stays whole (the man page test then finds it too wide: shorten it where it is written).
 */
export interface FittedLines {
  readonly lines: string[];
  /** A crontab line was cut: its parts are to be joined again. */
  readonly crontabCut: boolean;
}

export function fitLines(lines: readonly string[], room: number): FittedLines {
  let crontabCut = false;
  const fitted = lines.flatMap((line) => {
    const kind = kindOf(line);
    if (line.length > room && kind === 'crontab') crontabCut = true;
    return fitLine(line, room, kind);
  });
  return { lines: fitted, crontabCut };
}

type Kind = 'commented' | 'crontab' | 'row' | 'command';

/** Minute, hour, day, month and weekday (digits, *, ranges, steps, names), or @daily and the like, then the command. */
const CRONTAB_LINE = /^(?:@[a-z]+|[\d*][\w*/,-]*(?:\s+[\w*/,-]+){4})\s+\S/;
/** A first word, two blanks or more, its description. */
const TABLE_ROW = /^(\S+\s{2,})\S/;

function kindOf(line: string): Kind {
  if (commentOf(line)) return 'commented';
  if (CRONTAB_LINE.test(line)) return 'crontab';
  if (TABLE_ROW.test(line)) return 'row';
  return 'command';
}

function fitLine(line: string, room: number, kind: Kind): string[] {
  if (line.length <= room) return [line];
  if (kind === 'commented') {
    const { code, comment } = commentOf(line)!;
    return [...wrapWords(comment, '# ', '# ', room), ...fitLine(code, room, kindOf(code))];
  }
  if (kind === 'crontab') return cutAtBlanks(line, room, '');
  if (kind === 'row') {
    const lead = TABLE_ROW.exec(line)![1]!;
    // A deep second column on a narrow page leaves too little for a long word (a URL): hang by 4 instead.
    const hang = ' '.repeat(lead.length > room * 0.4 ? 4 : lead.length);
    return wrapWords(line.slice(lead.length), lead, hang, room);
  }
  return cutAtBlanks(line, room, ' \\');
}

/** `CODE   # COMMENT`: a comment after two blanks or more, outside quotes. */
function commentOf(line: string): { code: string; comment: string } | undefined {
  let quote: string | undefined;
  for (let at = 0; at < line.length; at++) {
    const char = line[at]!;
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === '#' && /\S {2,}$/.test(line.slice(0, at)) && line[at + 1] === ' ') {
      return { code: line.slice(0, at).trimEnd(), comment: line.slice(at + 2).trim() };
    }
  }
  return undefined;
}

/** The words of `text` greedily after `lead`, the next lines after `hang` (a word longer than the room stays whole). */
function wrapWords(text: string, lead: string, hang: string, room: number): string[] {
  const lines: string[] = [];
  let line = lead;
  for (const word of text.trim().split(/\s+/)) {
    const bare = line === lead || line === hang;
    if (!bare && line.length + 1 + word.length > room) {
      lines.push(line);
      line = `${hang}${word}`;
    } else line = bare ? `${line}${word}` : `${line} ${word}`;
  }
  lines.push(line);
  return lines;
}

/**
 * A line cut at a blank outside quotes before the room (less the `end` each cut line gets), the rest indented by two
 * and cut again; a long quoted string first, the first blank after it. A line with no such blank stays whole.
 */
function cutAtBlanks(line: string, room: number, end: string): string[] {
  if (line.length <= room) return [line];
  let quote: string | undefined;
  let cut = -1;
  // After the first word: a continuation's own indent is no place to cut.
  const start = line.length - line.trimStart().length;
  for (let at = start; at < line.length && (cut === -1 || at <= room - end.length); at++) {
    const char = line[at]!;
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === ' ' && line[at - 1] !== ' ' && line.slice(at).trim() !== '') cut = at;
  }
  if (cut === -1) return [line];
  return [`${line.slice(0, cut)}${end}`, ...cutAtBlanks(`  ${line.slice(cut + 1).trimStart()}`, room, end)];
}
