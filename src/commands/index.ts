/**
 * Every command of lk, in the order help lists them, with the module that registers it: the one place that decides
 * what a run loads. A run loads the module of the command its command line names and no other (a command's module
 * may therefore import what it needs at the top); what reads the whole tree (`lk help`,
 * `lk --help`, an unknown command's suggestion, the completion script, the help the build stores) loads them all.
 * esbuild turns each `import()` below into a module evaluated on first use, inside the one program file.
 */
import type { Command } from 'commander';
import { GLOBAL_FLAGS } from './define.js';
import { helpTopic } from '../help/topics.js';

type Register = (program: Command) => void;

export interface CommandModule {
  /** The command's name, as its module registers it (test/unit/command-table.test.ts checks). */
  readonly name: string;
  readonly load: () => Promise<Register>;
}

export const COMMANDS: readonly CommandModule[] = [
  { name: 'auth', load: () => import('./auth.js').then((module) => module.registerAuth) },
  { name: 'whoami', load: () => import('./whoami.js').then((module) => module.registerWhoami) },
  { name: 'library', load: () => import('./library.js').then((module) => module.registerLibrary) },
  { name: 'history', load: () => import('./history.js').then((module) => module.registerHistory) },
  { name: 'lists', load: () => import('./lists.js').then((module) => module.registerLists) },
  { name: 'calendar', load: () => import('./calendar.js').then((module) => module.registerCalendar) },
  { name: 'next', load: () => import('./next.js').then((module) => module.registerNext) },
  { name: 'status', load: () => import('./status.js').then((module) => module.registerStatus) },
  { name: 'serve', load: () => import('./serve.js').then((module) => module.registerServe) },
  { name: 'stats', load: () => import('./stats.js').then((module) => module.registerStats) },
  { name: 'reviews', load: () => import('./reviews.js').then((module) => module.registerReviews) },
  { name: 'profile', load: () => import('./profile.js').then((module) => module.registerProfile) },
  { name: 'notifications', load: () => import('./notifications.js').then((module) => module.registerNotifications) },
  { name: 'notify', load: () => import('./notify.js').then((module) => module.registerNotify) },
  { name: 'export', load: () => import('./export.js').then((module) => module.registerExport) },
  { name: 'diff', load: () => import('./diff.js').then((module) => module.registerDiff) },
  { name: 'convert', load: () => import('./convert.js').then((module) => module.registerConvert) },
  { name: 'sync', load: () => import('./sync.js').then((module) => module.registerSync) },
  { name: 'search', load: () => import('./search.js').then((module) => module.registerSearch) },
  { name: 'sql', load: () => import('./sql.js').then((module) => module.registerSql) },
  { name: 'feed', load: () => import('./feed.js').then((module) => module.registerFeed) },
  { name: 'report', load: () => import('./report.js').then((module) => module.registerReport) },
  { name: 'publish', load: () => import('./publish.js').then((module) => module.registerPublish) },
  { name: 'card', load: () => import('./card.js').then((module) => module.registerCard) },
  { name: 'mcp', load: () => import('./mcp.js').then((module) => module.registerMcp) },
  { name: 'open', load: () => import('./open.js').then((module) => module.registerOpen) },
  { name: 'api', load: () => import('./api.js').then((module) => module.registerApi) },
  { name: 'schedule', load: () => import('./schedule.js').then((module) => module.registerSchedule) },
  { name: 'alias', load: () => import('./alias.js').then((module) => module.registerAlias) },
  { name: 'extension', load: () => import('./extension.js').then((module) => module.registerExtension) },
  { name: 'config', load: () => import('./config.js').then((module) => module.registerConfig) },
  { name: 'completion', load: () => import('./completion.js').then((module) => module.registerCompletion) },
  { name: 'doctor', load: () => import('./doctor.js').then((module) => module.registerDoctor) },
  { name: 'sandbox', load: () => import('./sandbox.js').then((module) => module.registerSandbox) },
];

/**
 * The commands a run needs, from its arguments (after `node lk`): the one named, or for `lk help NAME` that one (none
 * for a help topic); every command when the line names none that lk has (`lk`, `lk --help`, `lk help`, a typo to suggest for).
 */
export function commandsFor(args: readonly string[]): readonly CommandModule[] {
  let word = commandWord(args, 0);
  if (word?.name === 'help') {
    word = commandWord(args, word.at + 1);
    // `lk help formats`: a topic needs no command at all.
    if (word && helpTopic(word.name) && !COMMANDS.some((command) => command.name === word?.name)) return [];
  }
  const named = COMMANDS.find((command) => command.name === word?.name);
  return named ? [named] : COMMANDS;
}

/** The global flags that take a value (`--profile work`): their value is not the command's name. */
let valued: Set<string> | undefined;

function takesValue(flag: string): boolean {
  valued ??= new Set(
    Object.values(GLOBAL_FLAGS)
      .map((declared) => declared.option())
      .filter((option) => option.required || option.optional)
      .flatMap((option) => [option.long, option.short].filter((name): name is string => name !== undefined)),
  );
  return valued.has(flag);
}

/** The words of lk's own commands, `help` included: an alias or an extension never takes one of them. */
export function isCommandName(name: string): boolean {
  return name === 'help' || COMMANDS.some((command) => command.name === name);
}

/** The first word from `from` that is not a global flag or its value, as commander reads the line. */
export function commandWord(args: readonly string[], from: number): { name: string; at: number } | undefined {
  for (let at = from; at < args.length; at++) {
    const arg = args[at]!;
    if (arg === '--') return at + 1 < args.length ? { name: args[at + 1]!, at: at + 1 } : undefined;
    if (!arg.startsWith('-') || arg === '-') return { name: arg, at };
    if (!arg.includes('=') && takesValue(arg)) at++;
  }
  return undefined;
}
