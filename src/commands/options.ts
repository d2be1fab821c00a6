import { type Command, Help, type Option } from 'commander';
import { flag, type OptionsOf } from './flags.js';
import { markDefaultSubcommand, type DynamicValues } from '../completion/model.js';
import type { PagingOptions } from '../api/paginate.js';
import { UsageError } from '../util/errors.js';

import { DOMAINS } from '../api/vocabulary.js';

export { DOMAINS, ORDERS, PHASES, SORTS } from '../api/vocabulary.js';

/** --domain: one of the four domains. */
export const DOMAIN_FLAG = { domain: flag.choice('--domain <domain>', 'only this domain', DOMAINS) };

/** -o FILE: on every command that prints data (README, Commands), with export's guarantees (src/util/output-file.ts). */
export const OUTPUT_FLAG = { output: flag.text('-o, --output <file>', 'write the output to this file, whole or not at all (0600 when new)') };

/** --page, --limit, --all, --max (and -o): on every command whose response is an envelope. */
export const PAGING_FLAGS = {
  ...OUTPUT_FLAG,
  page: flag.count('--page <n>', 'page to show, from 1', 1),
  limit: flag.count('--limit <n>', 'items per page, 1 to 100 (default 20; 100 with --all)', 1, 100),
  all: flag.toggle('--all', 'every item, following pages to the end (streams as pages arrive)'),
  max: flag.count('--max <n>', 'stop after N items', 1),
};

/** The paging flags as commander hands them over. */
export type PagingFlags = Partial<OptionsOf<typeof PAGING_FLAGS>>;

/** --db FILE: the mirror to read (lk sync, search, sql and --offline). */
export const DB_FLAG = { db: flag.text('--db <file>', 'the mirror file (default: <data folder>/<profile>.db; see lk sync --help)') };

/** --offline (the reading's mirror source, swapped in by src/commands/readings.ts) and --db: on every listing the mirror keeps. */
export const OFFLINE_FLAGS = {
  offline: flag.toggle('--offline', 'answer from the local mirror (lk sync): no key, no request'),
  ...DB_FLAG,
};

export function pagingFrom(options: PagingFlags): PagingOptions {
  if (options.all && options.page !== undefined) {
    throw new UsageError(
      '--all reads every page from the first: it does not combine with --page',
      'For one page: --page N (with --limit); for everything: --all.',
    );
  }
  return { page: options.page, limit: options.limit, all: Boolean(options.all), max: options.max };
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

/** Entry and list ids come from the local mirror at Tab time (`lk completion --ids`), never from the network. */
export const ENTRY_IDS: DynamicValues = { args: ['completion', '--ids', 'entries'] };
export const LIST_IDS: DynamicValues = { args: ['completion', '--ids', 'lists'] };

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
