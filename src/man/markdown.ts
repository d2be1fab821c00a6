import type { Command, Help } from 'commander';
import type { HelpTopic } from '../help/topic.js';
import { HELP_TOPICS } from '../help/topics.js';
import { afterBlocks, afterText, blocksUnder, type AfterBlock } from './after-text.js';
import { commandParts, fullName, pageName, pathOf, walk as commandsOf } from './pages.js';

/**
 * The manual in Markdown, for docs/ and the README: a page per command and subcommand (docs/commands/lk-library.md),
 * the help topics (docs/help/formats.md…) and the README's table of commands — from the same commander tree and the
 * same words as --help and the man pages (./pages.ts), read as data (descriptions, options, notes, examples), never
 * from the roff. Nothing here names a command: a new one gets its page and its row. `npm run man` writes them
 * (scripts/man.mjs); a test fails when what is checked in differs.
 */
export interface DocPage {
  /** Under docs/: `commands/lk-library.md`, `help/formats.md`. */
  readonly path: string;
  readonly markdown: string;
}

/** Where the pages are, from the repository's root (the README links there). */
const DOCS_FOLDER = 'docs';

const commandFile = (command: Command): string => `${pageName(command)}.md`;

export function markdownDocs(program: Command): DocPage[] {
  const help = program.createHelp();
  const commands = commandsOf(program, help);
  return [
    { path: 'commands/README.md', markdown: rootPage(program, help, commands) },
    ...commands.map((command) => ({ path: `commands/${commandFile(command)}`, markdown: commandPage(command, help) })),
    { path: 'help/README.md', markdown: topicsIndex() },
    ...HELP_TOPICS.map((topic) => ({ path: `help/${topic.name}.md`, markdown: topicPage(topic) })),
  ];
}

/** The README's table: a row per command and subcommand, linked to its page. */
export function commandTable(program: Command): string {
  const help = program.createHelp();
  const rows = commandsOf(program, help).map(
    (command) => `| [\`${synopsis(command, help)}\`](${DOCS_FOLDER}/commands/${commandFile(command)}) | ${cell(command.description())} |`,
  );
  return ['| command | what it does |', '|---|---|', ...rows].join('\n');
}

const GENERATED = '<!-- Written by `npm run man` from the command definitions (src/man/markdown.ts): edit those, not this file. -->';

function rootPage(program: Command, help: Help, commands: readonly Command[]): string {
  const examples = blocksUnder(afterBlocks(afterText(program)), 'Examples');
  return page([
    '# lk',
    inline(program.description()),
    'Each command has its page, with its options and examples; `lk COMMAND --help` shows the same, and `man lk-COMMAND` too. ' +
      `The help topics: ${HELP_TOPICS.map((topic) => `[${topic.name}](../help/${topic.name}.md)`).join(', ')}.`,
    '## Global options',
    'These apply to every command, before or after its name.',
    options(help.visibleOptions(program), help),
    '## Commands',
    commands.map((command) => `- [\`${fullName(command)}\`](${commandFile(command)}): ${inline(command.description())}`).join('\n'),
    ...(examples.length > 0 ? ['## Examples', ...examples.map((block) => blockMarkdown(block, true))] : []),
  ]);
}

function commandPage(command: Command, help: Help): string {
  const { args, sub, subs, intro, rest } = commandParts(command, help);
  const parent = command.parent?.parent ? command.parent : undefined;
  const defaults = sub ? help.visibleOptions(sub).filter((option) => option.long !== '--help') : [];
  let heading = '';
  return page([
    `# ${fullName(command)}`,
    inline(command.description()),
    ['```', synopsis(command, help, true), '```'].join('\n'),
    ...intro.map((block) => blockMarkdown(block, false)),
    ...(args.length > 0
      ? ['## Arguments', args.map((arg) => `- \`${help.argumentTerm(arg)}\`: ${inline(help.argumentDescription(arg))}`).join('\n')]
      : []),
    '## Options',
    options(help.visibleOptions(command), help),
    ...(sub && defaults.length > 0 ? [`### Options of ${fullName(command)} (= ${fullName(sub)})`, options(defaults, help)] : []),
    'The global options (`--json`, `--fields`, `--profile`, `-q`, …) are in [lk](README.md#global-options).',
    ...(subs.length > 0
      ? ['## Commands', subs.map((other) => `- [\`${fullName(other)}\`](${commandFile(other)}): ${inline(other.description())}`).join('\n')]
      : []),
    ...rest.map((block) => {
      if (block.kind === 'heading') heading = block.text;
      return block.kind === 'heading' ? `## ${block.text}` : blockMarkdown(block, heading === 'Examples');
    }),
    '## See also',
    [
      '[lk](README.md)',
      ...[...(parent ? [parent] : []), ...subs].map((other) => `[${fullName(other)}](${commandFile(other)})`),
      `\`man ${pageName(command)}\``,
    ].join(', '),
  ]);
}

/** The topics, as `lk help` lists them. */
function topicsIndex(): string {
  return page([
    '# lk help',
    'What the flags have in common, explained once: `lk help TOPIC` prints a topic, `man lk` has each as a section.',
    HELP_TOPICS.map((topic) => `- [${topic.name}](${topic.name}.md): ${inline(topic.summary)}`).join('\n'),
    'Each command: [lk](../commands/README.md).',
  ]);
}

/** A help topic as its own page: the same blocks `lk help TOPIC` shows. */
function topicPage(topic: HelpTopic): string {
  return page([
    `# lk help ${topic.name}`,
    `${topic.summary[0]!.toUpperCase()}${topic.summary.slice(1)}.`,
    ...topic.blocks.map((block) => {
      if ('paragraph' in block) return inline(block.paragraph);
      if ('lines' in block) return fence(block.lines, 'sh');
      return ['| | |', '|---|---|', ...block.items.map(([term, text]) => `| \`${term}\` | ${cell(text)} |`)].join('\n');
    }),
    `The same text: \`lk help ${topic.name}\`, and the section ${topic.section.toUpperCase()} of \`man lk\`. All commands: [lk](../commands/README.md).`,
  ]);
}

function page(blocks: readonly string[]): string {
  return `${GENERATED}\n\n${blocks.join('\n\n')}\n`;
}

/** `lk library show <id>`: the usage as --help words it, without its [options] and [command]. */
function synopsis(command: Command, help: Help, withOptions = false): string {
  const words = help
    .commandUsage(command)
    .split(' ')
    .slice(pathOf(command).length + 1);
  return [fullName(command), ...words.filter((word) => withOptions || (word !== '[options]' && word !== '[command]'))].join(' ');
}

function options(list: ReturnType<Help['visibleOptions']>, help: Help): string {
  return list.map((option) => `- \`${help.optionTerm(option)}\`: ${inline(help.optionDescription(option))}`).join('\n');
}

function blockMarkdown(block: AfterBlock, examples: boolean): string {
  if (block.kind === 'heading') return `### ${block.text}`;
  if (block.kind === 'paragraph') return inline(block.text);
  return fence(block.lines, examples ? 'sh' : '');
}

function fence(lines: readonly string[], language: string): string {
  return [`\`\`\`${language}`, ...lines, '```'].join('\n');
}

/**
 * The help's words as Markdown text: `code` kept as it is, and outside it what Markdown would read as markup escaped
 * (`<profile>.db` is no HTML tag, `*` no emphasis).
 */
function inline(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, at) => (at % 2 === 1 ? part : part.replace(/[\\<*]/g, (char) => `\\${char}`)))
    .join('');
}

/** Text in a table's cell: a | would end it. */
function cell(text: string): string {
  return inline(text).replace(/\|/g, '\\|');
}

const TABLE_START = '<!-- commands: written by npm run man from the command definitions -->';
const TABLE_END = '<!-- end of commands -->';

/** The README with `table` between its markers (what `npm run man` writes; the README is current when it is unchanged). */
export function withCommandTable(readme: string, table: string): string {
  const from = readme.indexOf(TABLE_START);
  const to = readme.indexOf(TABLE_END);
  if (from === -1 || to < from) throw new Error(`README.md: no ${TABLE_START} … ${TABLE_END} block`);
  return `${readme.slice(0, from + TABLE_START.length)}\n${table}\n${readme.slice(to)}`;
}
