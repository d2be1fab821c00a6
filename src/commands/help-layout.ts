import { Help, type Command, type Option } from 'commander';
import { markDefaultSubcommand } from '../completion/model.js';

/** Fewer columns than this beside a flag, and its description goes under it instead. */
const NARROWEST_BESIDE = 30;
const UNDER_INDENT = 6;

/**
 * An item of --help (a flag, a command, an argument) as commander lays it out, except on a narrow terminal: there the
 * description goes under its term, wrapped to the terminal's width, instead of beside it in a column too narrow to
 * wrap in (commander then leaves the line whole, for the terminal to break mid-word). gh's help does the same.
 * Through commander's public Help methods (formatItem, boxWrap, helpWidth).
 */
export function formatHelpItem(this: Help, term: string, termWidth: number, description: string, helper: Help): string {
  const width = this.helpWidth ?? 80;
  const beside = width - termWidth - 4;
  if (!description || beside >= NARROWEST_BESIDE || helper.preformatted(description)) {
    return Help.prototype.formatItem.call(this, term, termWidth, description, helper);
  }
  const under = helper.boxWrap(description, width - UNDER_INDENT);
  return `  ${term}\n${under.replace(/^/gm, ' '.repeat(UNDER_INDENT))}`;
}

/** Wrap down to this width (commander's own floor is 40): a narrow terminal still gets whole words. */
export const MIN_WIDTH_TO_WRAP = 20;

const indentOf = (line: string): number => line.length - line.trimStart().length;

/**
 * Help text written by hand (a command's notes, the settings, exit codes) fitted to the help's width. A paragraph
 * (lines from the left edge, and lines hanging under a "Label: " start) or a two-column item ("  name   what it
 * does") is rewrapped only when one of its lines is too long; other indented lines (commands, examples) stay whole.
 */
export function fitHelpText(text: string, width: number): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length;) {
    const first = lines[i]!;
    const indent = indentOf(first);
    const item = indent > 0 ? /^\s*\S(?:.*?\S)?\s{2,}(?=\S)/.exec(first) : null;
    // Examples are commands to copy: whole, however long (a cron line has its own double spaces).
    if (first === 'Examples:') {
      while (i < lines.length && lines[i]!.trim() !== '') out.push(lines[i++]!);
      continue;
    }
    if (first.trim() === '' || (indent > 0 && !item)) {
      out.push(first);
      i += 1;
      continue;
    }
    // "Exit codes: 0 ok, …" with its next lines aligned under the text after the label.
    const labelled = indent === 0 ? /^[^:]+:\s+(?=\S)/.exec(first) : null;
    const hangsUnderLabel = labelled !== null && indentOf(lines[i + 1] ?? '') === labelled[0].length;
    const hang = item ? item[0].length : hangsUnderLabel ? labelled[0].length : 0;
    let end = i + 1;
    while (end < lines.length && lines[end]!.trim() !== '') {
      const next = indentOf(lines[end]!);
      // An item or a labelled block goes on under its hang; a paragraph, from the left edge.
      if (next !== hang) break;
      end += 1;
    }
    const block = lines.slice(i, end);
    out.push(...(block.every((line) => line.length <= width) ? block : wrapWords(block, item?.[0] ?? '', hang, width)));
    i = end;
  }
  return out.join('\n');
}

/** The words of a block, greedily after `lead` (an item's name and its gap), the rest hanging at `hang` (never cut). */
function wrapWords(block: string[], lead: string, hang: number, width: number): string[] {
  const text = [block[0]!.slice(lead.length), ...block.slice(1)].map((line) => line.trim()).join(' ');
  // A deep hang on a narrow screen would leave a column too thin for a long word (a URL): indent by 4 instead.
  const hanging = ' '.repeat(hang > width * 0.4 ? 4 : hang);
  const lines: string[] = [];
  let line = lead;
  for (const word of text.split(/ +/)) {
    const candidate = line.trim() === '' || line === lead ? `${line}${word}` : `${line} ${word}`;
    if (candidate.length > width && line.trim() !== '' && line !== lead) {
      lines.push(line);
      // A word too long for the hang (a URL) starts further left rather than past the edge.
      line = `${hanging.length + word.length <= width ? hanging : ' '.repeat(Math.max(0, Math.min(4, width - word.length)))}${word}`;
    } else line = candidate;
  }
  lines.push(line);
  return lines;
}

/** The width the help of `command` is written at (commander's output configuration, as src/cli.ts sets it). */
export function helpWidthOf(command: Command): number {
  return command.configureOutput().getOutHelpWidth?.() ?? 80;
}

/** Text for commander's addHelpText, fitted at the time help is written to the width it is written at. */
export function fittedHelp(text: string): (context: { command: Command }) => string {
  return ({ command }) => fitHelpText(text, helpWidthOf(command));
}

/** Help text examples, the same layout on every command. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  ${line}`).join('\n')}\n`;
}

/**
 * `lk library --help` shows the options of `lk library list` as a section of its own, since `lk library --phase DONE`
 * runs the default subcommand. Read from the subcommand at help time, so the two never drift apart; nothing is
 * registered on the group, so parsing is unchanged.
 */
export function showDefaultSubcommandOptions(group: Command, sub: Command): void {
  const inherited = group.configureHelp();
  const baseVisibleOptions = inherited.visibleOptions ?? Help.prototype.visibleOptions;
  const baseFormatHelp = inherited.formatHelp ?? Help.prototype.formatHelp;
  const path = (command: Command): string => (command.parent ? `${path(command.parent)} ${command.name()}` : command.name());
  // Set while the group's help is written: commander also reads visibleOptions to suggest a flag for a mistyped one,
  // and a subcommand's unknown option must not be "corrected" into the default subcommand's flag.
  let writingHelp = false;
  group.configureHelp({
    ...inherited,
    formatHelp(this: Help, cmd: Command, helper: Help) {
      writingHelp = cmd === group;
      try {
        return baseFormatHelp.call(this, cmd, helper);
      } finally {
        writingHelp = false;
      }
    },
    // Subcommands created after this call inherit the configuration: only the group itself gets the extra section.
    visibleOptions(this: Help, cmd: Command) {
      const own = baseVisibleOptions.call(this, cmd);
      if (cmd !== group || !writingHelp) return own;
      const heading = `Options of \`${path(group)}\` (= ${path(sub)}):`;
      const extra = baseVisibleOptions
        .call(this, sub)
        .filter((option) => option.long !== '--help')
        // A copy, so that `lk library list --help` keeps its own "Options:" heading.
        .map((option) => Object.assign(Object.create(Object.getPrototypeOf(option) as object) as Option, option).helpGroup(heading));
      return [...own, ...extra];
    },
  });
}

/** The subcommand a group runs when none is named (`lk library` = `lk library list`). */
export function addDefaultSubcommand(group: Command, name: string, options: { hidden?: boolean } = {}): Command {
  const sub = group.command(name, { isDefault: true, ...options });
  markDefaultSubcommand(group, sub);
  // `lk config sett format json` reaches the default subcommand with "sett" as an operand: it is a mistyped
  // subcommand, said as such (exit 2), not "too many arguments for 'list'": taken in (see addCommand), refused here.
  sub.hook('preAction', () => {
    const word = sub.args[0];
    if (word === undefined || sub.registeredArguments.length > 0) return;
    const names = sub
      .createHelp()
      .visibleCommands(group)
      .filter((command) => group.commands.includes(command))
      .map((command) => command.name());
    const suggestion = closestName(word, names);
    const path = `${group.parent ? `${group.parent.name()} ` : ''}${group.name()}`;
    sub.error(`error: unknown command '${word}' for '${path}'${suggestion ? ` (Did you mean ${suggestion}?)` : ` (commands: ${names.join(', ')})`}`, {
      code: 'commander.unknownCommand',
    });
  });
  return sub;
}

/** The name a typo most likely meant: within a third of its length in edits (commander's own rule). */
export function closestName(word: string, names: string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(word.toLowerCase(), name.toLowerCase());
    if (distance <= Math.max(1, Math.floor(name.length / 3)) && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** Damerau–Levenshtein distance (optimal string alignment): a swapped pair of letters is one edit. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}
