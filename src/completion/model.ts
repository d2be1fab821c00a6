import type { Argument, Command, Option } from 'commander';
import { DATA_FORMATS } from '../util/data-formats.js';

export const COMPLETION_SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;
export type CompletionShell = (typeof COMPLETION_SHELLS)[number];

/**
 * What the completion scripts need to know, read from the commander tree that `lk` itself parses with, so that
 * the scripts never drift from the real commands, flags and allowed values.
 */

/** Where the values of a flag or operand come from. */
export type ValueSource =
  | { kind: 'choices'; name: string; choices: readonly string[] }
  /** Stored profile names, asked of `lk completion --profiles` at Tab time. */
  | { kind: 'profiles'; name: string }
  | { kind: 'files'; name: string }
  | { kind: 'directories'; name: string }
  /** A free value (a number, a date, a URL): nothing to offer, but the next word is the value, not a command. */
  | { kind: 'free'; name: string };

export interface FlagSpec {
  /** `-q`, when there is a short form. */
  short?: string;
  /** `--quiet`, when there is a long form. */
  long?: string;
  description: string;
  /** Absent when the flag takes no value. */
  value?: ValueSource;
  /** May be given more than once (a custom parser accumulates, or the value is variadic). */
  repeatable: boolean;
}

export interface OperandSpec {
  name: string;
  required: boolean;
  choices?: readonly string[];
  /** Values known only at Tab time: what `lk ARGS…` prints, one a line (ids from the mirror, a setting's values). */
  dynamic?: DynamicValues;
  variadic: boolean;
}

export interface DynamicValues {
  /** The words after `lk`, e.g. ['completion', '--ids', 'entries']. */
  args: readonly string[];
  /** The operands typed before this one are added to args (`lk config set format <Tab>` asks for format's values). */
  withOperands?: boolean;
}

/** How an operand completes, when commander's own choices do not say (they would also change what it accepts). */
const operandCompletions = new WeakMap<Argument, { choices?: readonly string[]; dynamic?: DynamicValues }>();

/** Completion-only values for an operand: commander still accepts anything, and the command checks it. */
export function completeOperand(argument: Argument | undefined, how: { choices?: readonly string[]; dynamic?: DynamicValues }): void {
  if (argument) operandCompletions.set(argument, how);
}

export interface CommandNode {
  /** `[]` for `lk` itself, `['library', 'list']` for `lk library list`. */
  path: string[];
  /** The name, then any aliases (empty for the root). */
  names: string[];
  description: string;
  /** Visible subcommands, in the order `--help` lists them. */
  subcommands: CommandNode[];
  /**
   * Flags of this command and of its default subcommand (`lk library --phase` is `lk library list --phase`), plus
   * global flags whose values differ here. A flag here with the long or short name of a global flag replaces it.
   */
  flags: FlagSpec[];
  operands: OperandSpec[];
}

export interface CompletionTree {
  name: string;
  root: CommandNode;
  /** Every node, root first, parents before children. */
  nodes: CommandNode[];
  /** Flags of `lk` itself, accepted after any command too (commander reads them anywhere on the line). */
  globals: FlagSpec[];
}

/** The formats each command writes (its output shape, src/output/shape.ts), recorded as commands are made. */
const commandFormats = new WeakMap<Command, readonly string[]>();

/** `--format` completes, on this command, to exactly the formats it writes (what its --format accepts). */
export function completeFormats(command: Command, formats: readonly string[]): void {
  commandFormats.set(command, formats);
}

/** The formats a node writes: its own, else its default subcommand's (`lk library` is `lk library list`). */
function formatsOf(command: Command): readonly string[] | undefined {
  for (let at: Command | undefined = command; at; at = defaultSubcommand(at)) {
    const formats = commandFormats.get(at);
    if (formats) return formats;
  }
  return undefined;
}

/** Flags whose values are only known at Tab time. */
const DYNAMIC_VALUES: Record<string, 'profiles'> = {
  '--profile': 'profiles',
};

export function completionTree(program: Command): CompletionTree {
  const help = program.createHelp();
  const flagOf = memo((option: Option) => flagSpec(option));
  const globalOptions = help.visibleOptions(program);
  const globals = globalOptions.map((option) => flagOf(option));

  const nodes: CommandNode[] = [];
  const build = (command: Command, path: string[]): CommandNode => {
    const own = path.length === 0 ? [] : command.options.filter((option) => !option.hidden).map(flagOf);
    const inherited: FlagSpec[] = [];
    for (let sub = defaultSubcommand(command); sub; sub = defaultSubcommand(sub)) {
      inherited.push(...sub.options.filter((option) => !option.hidden).map(flagOf));
    }
    const flags = [...own, ...inherited];
    const format = globals.find((flag) => flag.long === '--format');
    const here = path.length === 0 ? undefined : formatsOf(command);
    if (format?.value?.kind === 'choices' && here && here.join() !== format.value.choices.join() && !flags.some((flag) => sameName(flag, format)))
      flags.push({ ...format, value: { ...format.value, choices: here } });
    const node: CommandNode = {
      path,
      names: path.length === 0 ? [] : [command.name(), ...command.aliases()],
      description: command.description(),
      subcommands: [],
      flags,
      operands: command.registeredArguments.map((argument) => ({
        name: argument.name(),
        required: argument.required,
        variadic: argument.variadic,
        ...(argument.argChoices ? { choices: argument.argChoices } : {}),
        ...operandCompletions.get(argument),
      })),
    };
    nodes.push(node);
    // `lk help` (src/cli.ts) is left out: -h/--help already covers it.
    const visible = help.visibleCommands(command).filter((sub) => command.commands.includes(sub) && (command.parent || sub.name() !== 'help'));
    node.subcommands = visible.map((sub) => build(sub, [...path, sub.name()]));
    return node;
  };
  const root = build(program, []);
  for (const node of nodes) for (const name of [...node.path, ...node.names]) assertPlainWord(name);
  return { name: program.name(), root, nodes, globals };
}

/** The global flags in force at a node: those it does not replace with its own. */
export function globalsAt(tree: CompletionTree, node: CommandNode): FlagSpec[] {
  return tree.globals.filter((global) => !node.flags.some((flag) => sameName(flag, global)));
}

/** Every flag accepted at a node, its own first. */
export function flagsAt(tree: CompletionTree, node: CommandNode): FlagSpec[] {
  return [...node.flags, ...globalsAt(tree, node)];
}

/** `-q` and `--quiet`, as typed. */
export function flagNames(flag: FlagSpec): string[] {
  return [flag.short, flag.long].filter((name): name is string => name !== undefined);
}

function sameName(a: FlagSpec, b: FlagSpec): boolean {
  return (a.long !== undefined && a.long === b.long) || (a.short !== undefined && a.short === b.short);
}

function flagSpec(option: Option): FlagSpec {
  const takesValue = option.required || option.optional;
  const name = /[<[]([^>\]]+?)(?:\.\.\.)?[>\]]/.exec(option.flags)?.[1] ?? 'value';
  return {
    ...(option.short ? { short: option.short } : {}),
    ...(option.long ? { long: option.long } : {}),
    description: option.description,
    ...(takesValue ? { value: valueSource(option, name) } : {}),
    // A custom parser taking the previous value accumulates (`-F a=1 -F b=2`); choices() installs a parser of its own.
    repeatable: option.variadic || (option.parseArg !== undefined && !option.argChoices && option.parseArg.length >= 2),
  };
}

/** Values of flags that commander does not check itself (the command does, for the command it is on: see formatsOf). */
const FLAG_CHOICES: Record<string, readonly string[]> = {
  '--format': DATA_FORMATS,
};

function valueSource(option: Option, name: string): ValueSource {
  if (option.argChoices) return { kind: 'choices', name, choices: option.argChoices };
  const choices = option.long ? FLAG_CHOICES[option.long] : undefined;
  if (choices) return { kind: 'choices', name, choices };
  const dynamic = option.long ? DYNAMIC_VALUES[option.long] : undefined;
  if (dynamic) return { kind: dynamic, name };
  // The value's name in the flag says what it is: `-o, --output <file>`, `--output-dir <dir>`.
  if (/^(file|path)$/i.test(name)) return { kind: 'files', name };
  if (/^(dir|directory|folder)$/i.test(name)) return { kind: 'directories', name };
  return { kind: 'free', name };
}

/** Default subcommands, recorded as they are made (commander keeps its own record private). */
const defaultSubcommands = new WeakMap<Command, Command>();

/** `lk library --phase` must complete like `lk library list --phase`: the command tree says which is the default. */
export function markDefaultSubcommand(group: Command, sub: Command): void {
  defaultSubcommands.set(group, sub);
}

/** The subcommand a group runs when none is named (`lk library` runs `lk library list`), if it has one. */
export function defaultSubcommand(command: Command): Command | undefined {
  return defaultSubcommands.get(command);
}

/** The scripts match command names as plain words, unquoted. */
function assertPlainWord(name: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(name)) throw new Error(`completion: command name "${name}" is not a plain word`);
}

function memo<K extends object, V>(make: (key: K) => V): (key: K) => V {
  const cache = new Map<K, V>();
  return (key) => {
    let value = cache.get(key);
    if (value === undefined) cache.set(key, (value = make(key)));
    return value;
  };
}

/** Entry and list ids come from the local mirror at Tab time (`lk completion --ids`), never from the network. */
export const ENTRY_IDS: DynamicValues = { args: ['completion', '--ids', 'entries'] };
export const LIST_IDS: DynamicValues = { args: ['completion', '--ids', 'lists'] };

/** This machine's aliases and extensions, offered at Tab time beside lk's own commands (src/extend/names.ts). */
export const LOCAL_COMMANDS: readonly DynamicValues[] = [{ args: ['completion', '--aliases'] }, { args: ['completion', '--extensions'] }];
