import type { Command, Help } from 'commander';
import { defaultSubcommand } from '../completion/model.js';
import type { HelpTopic } from '../help/topic.js';
import { HELP_TOPICS } from '../help/topics.js';
import { afterBlocks, afterText, blocksUnder, type AfterBlock } from './after-text.js';
import { item, lines, literal, paragraph, prose, section, subsection, titleLine } from './roff.js';

/**
 * lk(1) and a page per command and subcommand (lk-library(1), lk-library-list(1), as gh makes one per command), made
 * at build time from the same commander tree as --help: the usage, description, arguments and options as --help
 * words them (commander's Help), the command's notes and examples, and in lk(1) the help topics as its sections.
 * Any command of the table gets its page: nothing here names one.
 */
export interface ManPage {
  /** `lk-library`: the file is `<name>.1`. */
  readonly name: string;
  readonly roff: string;
}

export function manPages(program: Command, version: string): ManPage[] {
  const help = program.createHelp();
  const commands = walk(program, help);
  return [rootPage(program, help, commands, version), ...commands.map((command) => commandPage(command, help, version))];
}

export const pageName = (command: Command): string => ['lk', ...pathOf(command)].join('-');
export const fullName = (command: Command): string => ['lk', ...pathOf(command)].join(' ');

export function pathOf(command: Command): string[] {
  return command.parent ? [...pathOf(command.parent), command.name()] : [];
}

/** Every command shown by --help, depth first (lk help is lk(1) itself: its topics are sections there). */
export function walk(command: Command, help: Help): Command[] {
  return help
    .visibleCommands(command)
    .filter((sub) => command.commands.includes(sub) && !(command.parent === null && sub.name() === 'help'))
    .flatMap((sub) => [sub, ...walk(sub, help)]);
}

function rootPage(program: Command, help: Help, commands: readonly Command[], version: string): ManPage {
  const examples = blocksUnder(afterBlocks(afterText(program)), 'Examples');
  const roff = [
    titleLine('lk', version),
    section('name'),
    `lk \\- ${prose(program.description())}`,
    section('synopsis'),
    `\\fBlk\\fR ${literal('[options] [command]')}`,
    section('description'),
    prose(program.description()),
    paragraph(
      'Each command has its own page, lk-COMMAND(1), with its options and examples, and `lk COMMAND --help` shows the same. `lk help TOPIC` shows a section of this page: ' +
        `${HELP_TOPICS.map((topic) => topic.name).join(', ')}.`,
    ),
    section('options'),
    paragraph('These global options apply to every command, before or after its name.'),
    ...help.visibleOptions(program).map((option) => item(help.optionTerm(option), help.optionDescription(option))),
    section('commands'),
    ...commands.map((command) => item(fullName(command), command.description(), pageName(command))),
    ...HELP_TOPICS.flatMap(topicSection),
    section('aliases and extensions'),
    paragraph(
      '`lk alias set NAME EXPANSION` makes a word of your own stand for an lk command line ($1, $2… replaced by the arguments, the rest appended; with --shell, a line for sh). An executable named lk-NAME in an absolute folder of PATH runs as `lk NAME ARGS…`, with LK_PROFILE and LK_BASE_URL set and never a key lk read (its `lk auth token` still works, under LK_API_KEY_FILE through LK_KEY_SOCKET). A command of lk always wins, then an alias; an alias that runs itself again stops with exit 2. `lk help NAME` says what an alias runs; `lk alias list` and `lk extension list` show them.',
    ),
    ...(examples.length > 0 ? [section('examples'), ...examples.map(blockRoff)] : []),
    section('see also'),
    seeAlso(commands),
  ];
  return { name: 'lk', roff: `${roff.join('\n')}\n` };
}

/**
 * What a command's page is made of, for the man page and the Markdown page alike: its arguments, its group's default
 * subcommand and subcommands, and the text after its help split at its first heading (before it: the description).
 */
export function commandParts(command: Command, help: Help) {
  const after = afterBlocks(afterText(command));
  const firstHeading = after.findIndex((block) => block.kind === 'heading');
  return {
    args: help.visibleArguments(command),
    sub: defaultSubcommand(command),
    subs: help.visibleCommands(command).filter((other) => command.commands.includes(other)),
    intro: firstHeading === -1 ? after : after.slice(0, firstHeading),
    rest: firstHeading === -1 ? [] : after.slice(firstHeading),
  };
}

function commandPage(command: Command, help: Help, version: string): ManPage {
  const name = pageName(command);
  const { args, sub, subs, intro, rest } = commandParts(command, help);
  const roff = [
    titleLine(name, version),
    section('name'),
    `${literal(name)} \\- ${prose(command.description())}`,
    section('synopsis'),
    `\\fB${literal(fullName(command))}\\fR ${literal(
      help
        .commandUsage(command)
        .split(' ')
        .slice(pathOf(command).length + 1)
        .join(' '),
    )}`,
    section('description'),
    prose(command.description()),
    ...intro.map(blockRoff),
    ...(args.length > 0 ? [section('arguments'), ...args.map((arg) => item(help.argumentTerm(arg), help.argumentDescription(arg)))] : []),
    section('options'),
    ...help.visibleOptions(command).map((option) => item(help.optionTerm(option), help.optionDescription(option))),
    ...defaultOptions(command, sub, help),
    paragraph('The global options (--json, --fields, --profile, -q, …) are in lk(1).'),
    ...(subs.length > 0 ? [section('commands'), ...subs.map((other) => item(fullName(other), other.description(), pageName(other)))] : []),
    ...rest.map((block) => (block.kind === 'heading' ? section(block.text) : blockRoff(block))),
    section('see also'),
    seeAlso([...(command.parent?.parent ? [command.parent] : []), ...subs]),
  ];
  return { name, roff: `${roff.join('\n')}\n` };
}

/** `lk library --phase` is `lk library list --phase`: the default subcommand's options, as lk library --help shows them. */
function defaultOptions(command: Command, sub: Command | undefined, help: Help): string[] {
  const options = sub ? help.visibleOptions(sub).filter((option) => option.long !== '--help') : [];
  if (!sub || options.length === 0) return [];
  return [
    subsection(`Options of ${fullName(command)} (= ${fullName(sub)})`),
    ...options.map((option) => item(help.optionTerm(option), help.optionDescription(option))),
  ];
}

function seeAlso(commands: readonly Command[]): string {
  return ['lk', ...commands.map(pageName)].map((page, at, all) => `.BR ${literal(page)} (1)${at < all.length - 1 ? ',' : ''}`).join('\n');
}

function blockRoff(block: AfterBlock): string {
  if (block.kind === 'heading') return subsection(block.text);
  if (block.kind === 'paragraph') return paragraph(block.text);
  return lines(block.lines);
}

/** A help topic as a section of lk(1): the same blocks `lk help TOPIC` shows. */
function topicSection(topic: HelpTopic): string[] {
  return [
    section(topic.section),
    ...topic.blocks.map((block) => {
      if ('paragraph' in block) return paragraph(block.paragraph);
      if ('lines' in block) return lines(block.lines);
      return block.items.map(([term, text]) => item(term, text)).join('\n');
    }),
  ];
}
