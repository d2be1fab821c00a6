/**
 * One way to declare a command. `defineCommand({ name, description, output, flags, operands, examples, run })` states a
 * command once; `addCommand(parent, definition)` (or `{ isDefault: true }` for a group's default subcommand) puts it
 * in the tree. `flags` is a record whose keys are the option names commander gives (`--max-age` is `maxAge`), each
 * made with `flag.text`, `flag.toggle`, `flag.negated`, `flag.choice`, `flag.count`, `flag.duration`, `flag.date`,
 * `flag.parsed` or `flag.custom<T>` (a number, duration or date is parsed there, once: run gets the value); shared groups are records
 * too, spread in (`...PAGING_FLAGS`, `...OUTPUT_FLAG`, `...OFFLINE_FLAGS`, `...DOMAIN_FLAG` from ./options.ts), so a
 * group is declared once and cannot drift. `operands` are
 * `operand('<id>', 'entry id', { complete: { dynamic: ENTRY_IDS } })`: `<x>` is a string, `[x]` string | undefined,
 * `<x...>` string[], and with `choices: LIST` one of LIST.
 *
 * `output` says what the command prints (src/output/shape.ts): `DATA` (a listing or a resource: every format,
 * --fields, --jq, --no-header, --csv-safe), `CHECKS` (a table or JSON), `TEXT` (no format: a key, a script, a URL) or
 * `documentShape(formats, default, { jq, header, csvSafe, instead })`. Before run, the wrapper refuses every global
 * output flag that does not fit it, in one line naming the flag and the command (exit 2): a command never refuses
 * --json, --fields or --jq by hand, and never ignores one. `uses` does the same for the connection and terminal flags
 * (--profile, --base-url, --lang, --cache, --timeout, --max-wait, --no-wait, --cacert, -v; ./uses.ts): unset, a
 * command honours them all (and, with its own --offline, only --profile, --lang and the terminal's); one that sends
 * no request, or shows no title, says so with `uses: PROFILE`, `REQUESTS`, `plus(…)`, `except(…)`.
 *
 * The handler is `run(ctx, out, options, operands)`: `ctx` is the run's Context (env, io for stderr, settings, clock,
 * signal, the lazy client), `out` its OutputSession, and `options` and `operands` are typed from the declaration, with
 * no cast. run gathers and RETURNS what to show (src/output/result.ts): `listing(pages, view, paged)`,
 * `resource(read, { view, layout })` (both lazy, so -o and --fields are checked before the first request), checks,
 * or `text(…)`; output/show.ts writes it in the run's format, --jq applies, -o is committed, and a result that ends
 * in failure (a failed check, a refused key) fails the run only then. A listing whose JSON holds more than its rows
 * gives `json` (that value with --json) and `tablesAfter` (more tables for a person: lk config list). A result read
 * from something the run opened (the mirror: the engine's handle, ./readings.ts commandHost) needs it open while it is
 * shown: hand its closing to `ctx.closeWhenDone(close)`, which the wrapper runs once the result is shown or failed,
 * never a try/finally around the return. Bytes kept as they are (feed, report, calendar's ics, export, convert, api)
 * are `document({ format, file, folder, terminal, make })`: the wrapper settles where they go first (-o, the
 * command's default file or backup folder, a binary refused on a terminal), then calls `make(target)` and writes
 * what it returns to stdout or puts each file in place whole (output/document.ts); a server that runs until Ctrl-C
 * (serve, sandbox) is `service({ signal, endsCleanly, start })`, whose announcement the wrapper writes. Only `lk mcp`
 * holds stdout itself: it is the protocol. Global flags (GLOBAL_FLAGS) reach a command only through ctx and out.
 * `storedConfig: 'lenient' | 'unread'` is for the commands that must work with a broken config file (config,
 * completion, sandbox).
 *
 * Porting a command: add `output: DATA` (or the shape it prints) to its definition; replace
 * `await renderListing(...)`/`runListing(ctx, out, …)` with `return runReading(ctx, name, filters, options)` (./readings.ts,
 * an entry of src/readings/table.ts: a listing or a single resource, --offline included), `out.io.write(text)` with
 * `return text(…)`, a mirror closed in a finally with a reading of the engine (./readings.ts: closed once shown) and no
 * finally, a file written with replaceFile (or `out.io.write` of a document) with `return document({ make })`, its
 * "lk: wrote" line with the body's `said` (the default says the size) and what follows with its `after`, and delete
 * any `if (out.flags.fields …) throw new UsageError(…)` or `if (options.output === '')`: the shape and the wrapper
 * say it. From the older shape: `.command(…).option(…).action(action(runX))` becomes a definition and `addCommand`;
 * `ctx.outputOptions()`, `ctx.format()`, `ctx.fields()`, `ctx.colors()` become `out.…`; `ctx.options.X` is
 * `out.flags.X` for an output flag (format, json, fields, header, output…) or `ctx.flags.X` for the others (profile,
 * cache, wait, maxWait…); `addPagingOptions(cmd)` is `...PAGING_FLAGS`, `addOutputOption(cmd)` `...OUTPUT_FLAG`,
 * `domainOption()` `...DOMAIN_FLAG`, `offlineOption()` and `dbOption()` `...OFFLINE_FLAGS`.
 */
import { Argument, Option, type Command } from 'commander';
import { completeFormats, completeOperand, defaultSubcommand, type DynamicValues } from '../completion/model.js';
import { LANGS } from '../config/settings.js';
import { Context, type Factory, type StoredConfigUse } from '../context.js';
import type { OutputSession } from '../output/session.js';
import { failureOf, type Result } from '../output/result.js';
import { showResult } from '../output/show.js';
import { spelledFormat, unfitFlag, unfitMessage, type OutputShape } from '../output/shape.js';
import { DATA_FORMATS } from '../util/data-formats.js';
import { UsageError } from '../util/errors.js';
import { flag, type Flags, type OptionsOf } from './flags.js';
import { addDefaultSubcommand, examples as examplesText } from './help-layout.js';
import { fittedHelp } from './help-layout.js';
import { optionGiven, optionWords, TITLES, TITLES_OR_MIRROR, unfitRunFlag, type Uses } from './uses.js';

/** A positional operand: `<x>` required, `[x]` optional, `...` for the rest of the line. */
export interface Operand<S extends string = string, V extends string = string> {
  readonly spec: S;
  readonly description: string;
  /** The values accepted (commander refuses others): the operand's type. */
  readonly choices?: readonly V[];
  /** Values listed in help and completion only: run checks the value itself (in any case, with its own message). */
  readonly shownChoices?: readonly string[];
  /** How it completes on Tab (completion only). */
  readonly complete?: { choices?: readonly string[]; dynamic?: DynamicValues };
}

export function operand<const S extends string, const V extends string = string>(
  spec: S,
  description: string,
  more: Omit<Operand<S, V>, 'spec' | 'description'> = {},
): Operand<S, V> {
  return { spec, description, ...more };
}

type OperandValue<S extends string, V extends string> = S extends `${string}...${string}` ? V[] : S extends `<${string}>` ? V : V | undefined;
export type OperandsOf<A extends readonly Operand[]> = {
  -readonly [I in keyof A]: A[I] extends Operand<infer S, infer V> ? OperandValue<S, V> : never;
};

export interface CommandDefinition<F extends Flags, A extends readonly Operand[]> {
  name: string;
  description: string;
  flags?: F;
  operands?: A;
  /** Lines of the help's "Examples:" section. */
  examples?: readonly string[];
  /** Help text after the options (before the examples), verbatim. */
  help?: string;
  /** How the config file is read (src/context.ts StoredConfigUse); checked unless said. */
  storedConfig?: StoredConfigUse;
  /**
   * What the command prints (src/output/shape.ts: DATA, CHECKS, TEXT or a documentShape): the wrapper refuses, before
   * run, every output flag that does not fit it.
   */
  output: OutputShape;
  /**
   * The connection and terminal flags it honours (./uses.ts): the wrapper refuses the others before run. Unset: all
   * of them (TITLES), and only the profile, --lang and the terminal's with the command's own --offline.
   */
  uses?: Uses;
  /** Gathers; returns a Result for the wrapper to show (void: nothing for stdout, such as lk export --git's repository). */
  run(ctx: Context, out: OutputSession, options: OptionsOf<F>, operands: OperandsOf<A>): Promise<Result | void>;
}

/** A command stated once; the identity, there for the types. */
export function defineCommand<const F extends Flags = Record<never, never>, const A extends readonly Operand[] = []>(
  definition: CommandDefinition<F, A>,
): CommandDefinition<F, A> {
  return definition;
}

/** Puts a defined command under `parent` (the program or a group) and wires its run. */
export function addCommand<F extends Flags, A extends readonly Operand[]>(
  parent: Command,
  definition: CommandDefinition<F, A>,
  placement: { isDefault?: boolean; hidden?: boolean } = {},
): Command {
  const hidden = placement.hidden ? { hidden: true } : {};
  const command = placement.isDefault ? addDefaultSubcommand(parent, definition.name, hidden) : parent.command(definition.name, hidden);
  command.description(definition.description);
  for (const { spec, description, choices, shownChoices, complete } of definition.operands ?? []) {
    const argument = new Argument(spec, description);
    if (choices) argument.choices(choices);
    // choices() for help and completion; the parser after it replaces commander's check with the command's own.
    if (shownChoices) argument.choices(shownChoices).argParser((value: string) => value);
    command.addArgument(argument);
    if (complete) completeOperand(argument, complete);
  }
  for (const [name, declared] of Object.entries(definition.flags ?? {})) {
    const option = declared.option();
    if (option.attributeName() !== name) throw new Error(`internal: flag ${option.flags} is declared as "${name}"`);
    command.addOption(option);
  }
  const help = [definition.help, definition.examples && examplesText(...definition.examples)].filter(Boolean).join('');
  if (help) command.addHelpText('after', fittedHelp(help));
  shapes.set(command, definition.output);
  completeFormats(command, definition.output.formats);
  // A word after a group that takes no operand is a mistyped subcommand: addDefaultSubcommand says so.
  if (placement.isDefault && !definition.operands?.length) command.allowExcessArguments();
  command.action(async function (this: Command) {
    const typed = globalOptions(this);
    const shape = shapeOfRun(this, definition.output);
    const globals = await refuseUnfitFlags(this, shape, typed);
    refuseUnusedFlags(this, usesOf(definition), globals);
    const ctx = new Context(globals, factoryOf(this), definition.storedConfig);
    const out = ctx.outputSession(globals, shape.shape);
    try {
      await out.begin();
      // The one place commander's untyped values meet the declaration they were parsed from.
      const result = await definition.run(ctx, out, this.opts() as OptionsOf<F>, this.processedArgs as OperandsOf<A>);
      if (result) await showResult(result, out);
      await out.finish();
      const failure = result && failureOf(result);
      if (failure) throw failure;
    } finally {
      try {
        await out.close();
      } finally {
        await ctx.close();
      }
    }
  });
  return command;
}

/** Every defined command's shape, so that a format refused here can name the command that writes it. */
const shapes = new WeakMap<Command, OutputShape>();

/** What this run prints: the declared shape, or the one its own flag switches to (lk sql --schema), and its name. */
function shapeOfRun(command: Command, declared: OutputShape): { shape: OutputShape; named: string } {
  const toggled = declared.when && optionGiven(command.opts(), declared.when.option) ? declared.when : undefined;
  return toggled ? { shape: toggled.shape, named: `${pathOf(command)} ${optionWords(toggled.option)}` } : { shape: declared, named: pathOf(command) };
}

/** Every format some command of the program writes (of the whole program: `root` is one). */
function knownFormats(root: Command): string[] {
  return [...new Set(commandsUnder(root).flatMap((other) => shapes.get(other)?.formats ?? []))];
}

/**
 * The printer choice's first half (the second is the OutputSession's format()): --format, in any case, read against
 * the formats the shape declares, the one list it accepts. An output flag the command cannot honour is refused, once
 * for every command, in one line naming the flag and the command (`--fields does not apply to lk feed`); a format
 * no command writes in the words of any refused choice with the command's own list; a format that only another
 * command writes names that command. Returns the flags with --format spelt as the shape spells it.
 */
async function refuseUnfitFlags(
  command: Command,
  { shape, named }: { shape: OutputShape; named: string },
  typed: GlobalOptions,
): Promise<GlobalOptions> {
  // The other commands' formats matter only for a format this command does not write: only then is the whole
  // program loaded (a run's tree holds its own command alone, src/commands/index.ts).
  const own = typed.format === undefined ? typed : { ...typed, format: spelledFormat(typed.format, shape, []) };
  if (unfitFlag(shape, own, shape.formats) === undefined) return own;
  const root = await wholeProgram(command);
  const known = knownFormats(root);
  const flags = typed.format === undefined ? typed : { ...typed, format: spelledFormat(typed.format, shape, known) };
  const unfit = unfitFlag(shape, flags, known);
  if (!unfit) return flags;
  if (unfit.formats && !unfit.unknown) {
    const format = unfit.flag.replace('--format ', '');
    const owner = commandsUnder(root).find((other) => !DATA_FORMATS.includes(format as never) && shapes.get(other)?.formats.includes(format));
    if (owner) throw new UsageError(`${unfit.flag} is only for ${pathOf(owner)}`);
  }
  throw new UsageError(unfitMessage(unfit, named));
}

/** A connection or terminal flag the command does not honour, refused like an output flag (./uses.ts). */
function refuseUnusedFlags(command: Command, uses: Uses, flags: GlobalOptions): void {
  const refusal = unfitRunFlag(uses, flags, command.opts(), pathOf(command));
  if (refusal) throw new UsageError(refusal.message, refusal.hint);
}

function usesOf(definition: { uses?: Uses | undefined; flags?: Flags | undefined }): Uses {
  return definition.uses ?? (definition.flags && 'offline' in definition.flags ? TITLES_OR_MIRROR : TITLES);
}

function rootOf(command: Command): Command {
  let root = command;
  while (root.parent) root = root.parent;
  return root;
}

function commandsUnder(command: Command): Command[] {
  return command.commands.flatMap((sub) => [sub, ...commandsUnder(sub)]);
}

/** `lk lists show`; a group's default subcommand by the group's name (`lk library` for `lk library list`). */
function pathOf(command: Command): string {
  if (!command.parent) return command.name();
  return defaultSubcommand(command.parent) === command ? pathOf(command.parent) : `${pathOf(command.parent)} ${command.name()}`;
}

/**
 * --format as typed: a global flag is parsed before the command is known, so the value is read against the command's
 * shape in the wrapper (refuseUnfitFlags), which accepts what the command writes and names those formats when it
 * refuses. Not commander's choices: they would be one list for every command. Help names a listing's formats; lk
 * calendar, feed, report, export, doctor and sandbox say their own.
 */
function formatOption(): Option {
  return new Option('--format <format>', `output format: ${DATA_FORMATS.join(', ')}`);
}

/** The program's own flags, given before or after any command; read by Context and the OutputSession. */
export const GLOBAL_FLAGS = {
  profile: flag.custom<string | undefined>(() => new Option('--profile <name>', 'stored profile (account + instance)').env('LK_PROFILE')),
  baseUrl: flag.custom<string | undefined>(() => new Option('--base-url <url>', 'the address in front of /v1').env('LK_BASE_URL')),
  format: flag.custom<string | undefined>(formatOption),
  json: flag.toggle('--json', 'shorthand for --format json'),
  ndjson: flag.toggle('--ndjson', 'shorthand for --format ndjson'),
  csv: flag.toggle('--csv', 'shorthand for --format csv'),
  tsv: flag.toggle('--tsv', 'shorthand for --format tsv'),
  fields: flag.text('--fields <list>', 'comma-separated dot paths to output, e.g. id,work.title,status; "help" lists them'),
  jq: flag.text('--jq <expr>', 'filter the JSON output with jq; strings print raw, one value a line'),
  header: flag.negated('--no-header', 'no header row in table, csv and tsv'),
  lang: flag.choice('--lang <lang>', 'language of film and series titles', LANGS),
  color: flag.negated('--no-color', 'no colour (also NO_COLOR)'),
  pager: flag.negated('--no-pager', 'never page long output (pager: LK_PAGER, config pager, PAGER, else less -FRX)'),
  csvSafe: flag.toggle('--csv-safe', "prefix ' to csv cells a spreadsheet would run as a formula"),
  quiet: flag.toggle('-q, --quiet', 'nothing on stderr but errors'),
  verbose: flag.toggle('-v, --verbose', 'one stderr line per request (also LK_DEBUG=1); the key redacted'),
  cache: flag.text(
    '--cache <duration>',
    'answer reads from a local response cache younger than this, e.g. 30s, 5m, 1h (for prompts and status bars)',
  ),
  wait: flag.negated('--no-wait', 'on a rate limit, fail at once (exit 5) instead of waiting'),
  maxWait: flag.text('--max-wait <seconds>', 'longest single wait for the rate limit (default 300)'),
  timeout: flag.text('--timeout <seconds>', 'per-request timeout (default 30)'),
  cacert: flag.text('--cacert <file>', 'trust this CA (PEM) for the instance, besides the usual ones (also LK_CA_FILE)'),
};

/** The global options, and -o of the command that takes it, as the OutputSession reads them. */
type GlobalOptions = Partial<OptionsOf<typeof GLOBAL_FLAGS>> & { output?: string | undefined };

/** Adds GLOBAL_FLAGS to the program. */
export function addGlobalFlags(program: Command): Command {
  for (const declared of Object.values(GLOBAL_FLAGS)) program.addOption(declared.option());
  return program;
}

/** The factory each program was made with (src/cli.ts `makeProgram`), found from any of its commands. */
const factories = new WeakMap<Command, Factory>();

export function attachFactory(program: Command, factory: Factory): void {
  factories.set(program, factory);
}

/** How each program builds the whole program (every command), for what reads more than the run's own command. */
const wholePrograms = new WeakMap<Command, () => Promise<Command>>();

export function attachWholeProgram(program: Command, build: () => Promise<Command>): void {
  wholePrograms.set(program, build);
}

/** The whole program `command` belongs to: its own when it was built whole, else built once more whole. */
export async function wholeProgram(command: Command): Promise<Command> {
  const build = wholePrograms.get(rootOf(command));
  return build ? build() : rootOf(command);
}

function factoryOf(command: Command): Factory {
  const factory = factories.get(rootOf(command));
  if (!factory) throw new Error('internal: a command ran outside a program made by makeProgram');
  return factory;
}

/**
 * The global options as typed on the command line (with the command's own -o). `.env()` on --base-url and --profile
 * makes commander fill them in from LK_BASE_URL and LK_PROFILE (and say so in --help); those values are dropped here
 * so that src/config/resolve.ts applies the precedence (flag, environment, profile, config) and can tell which one won.
 */
function globalOptions(command: Command): GlobalOptions {
  const options = command.optsWithGlobals<GlobalOptions>();
  for (const name of Object.keys(options) as (keyof GlobalOptions)[]) {
    if (command.getOptionValueSourceWithGlobals(name) === 'env') delete options[name];
  }
  return options;
}
