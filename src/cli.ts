import { PassThrough } from 'node:stream';
import { sleep } from './util/sleep.js';
import { manPages as pagesOf, type ManPage } from './man/pages.js';
import { commandTable, markdownDocs, type DocPage } from './man/markdown.js';
export { withCommandTable } from './man/markdown.js';
import { Command, CommanderError, Help } from 'commander';
import { addGlobalFlags, attachFactory, attachWholeProgram } from './commands/define.js';
import { COMMANDS, commandsFor } from './commands/index.js';
import { addHelpCommand, topicsList } from './commands/help.js';
import { localCommandsHelp, routeLine } from './commands/local.js';
import { fittedHelp, formatHelpItem, MIN_WIDTH_TO_WRAP } from './commands/help-layout.js';
import type { Factory } from './context.js';
import { ExitCode, LkError, SilentExit } from './util/errors.js';
import { endsCleanlyOnSignal, runInterruptCleanups } from './util/interrupt.js';
import { paintErrorLines, type ColorMode } from './output/terminal/io.js';
import { configDir } from './config/paths.js';
import { readStoredConfig } from './config/store.js';
import { hintFor, messageFor } from './output/wording/messages.js';
import { sanitizeMessage, sanitizeText } from './output/terminal/sanitize.js';
import { redactKeys } from './util/redact.js';
import { VERSION } from './util/version.js';
import { isSqliteLocked, LOCKED_HINT } from './util/sqlite-errors.js';
import { recordScheduledRun } from './schedule/last-run.js';

export { VERSION };

/**
 * Builds the command tree for one run. The factory supplies everything from outside (streams, environment, clock,
 * signal): the real process passes its own, tests pass fakes, and the completion generator only reads the tree.
 * Given the run's argv, the tree holds only the command the line names (src/commands/index.ts, commandsFor), so a
 * run loads that command's module and no other; without, every command: the whole tree.
 */
export async function makeProgram(factory: Factory = processFactory(), argv?: readonly string[]): Promise<Command> {
  const commands = argv ? commandsFor(argv.slice(2)) : COMMANDS;
  const program = new Command('lk')
    .description('Your media-tracking library from the terminal: lookups, pipelines, backups.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError(true)
    .configureHelp({
      sortSubcommands: false,
      minWidthToWrap: MIN_WIDTH_TO_WRAP,
      formatItem: formatHelpItem,
      // A subcommand lists its own flags, then one line for the twenty global ones (lk --help lists them).
      formatHelp(this: Help, command: Command, helper: Help): string {
        const text = Help.prototype.formatHelp.call(this, command, helper);
        return command.parent ? `${text}\n${helper.boxWrap(GLOBAL_OPTIONS_LINE, helper.helpWidth ?? 80)}\n` : text;
      },
    })
    .configureOutput({
      writeOut: (text) => factory.stdout.write(text),
      writeErr: (text) => factory.stderr.write(text),
      getOutHelpWidth: () => helpWidth(factory),
      getErrHelpWidth: () => helpWidth(factory),
      outputError: (text, write) =>
        write(paintErrorLines(`lk: ${text.replace(/^error: /, '')}`, factory.stderr, factory.env, factory.argv, () => storedColorMode(factory.env))),
    })
    .exitOverride();
  addGlobalFlags(program);

  attachFactory(program, factory);
  // A tree of the run's own command alone: what needs the others (their formats, the completion script) builds them all.
  if (commands !== COMMANDS) attachWholeProgram(program, () => makeProgram(factory));
  for (const register of await Promise.all(commands.map((command) => command.load()))) register(program);
  // The whole tree also holds a command for each listing of the readings table that no module writes (commands/made.ts).
  if (commands === COMMANDS) (await import('./commands/made.js')).registerMadeReadings(program);
  addHelpCommand(program, factory.env);
  // This machine's aliases and extensions, read when the help is written, not at every run.
  program.addHelpText('after', () => localCommandsHelp(factory.env));

  program.addHelpText(
    'after',
    fittedHelp(`
Exit codes: 0 ok, 1 failure, 2 usage, 3 not authenticated, 4 forbidden,
            5 rate limited, 6 not found.
Environment: LK_API_KEY, LK_API_KEY_FILE, LK_BASE_URL, LK_PROFILE,
             LK_CONFIG_DIR, LK_CACHE_DIR, LK_DATA_DIR, LK_CA_FILE, LK_DEBUG,
             NO_COLOR, FORCE_COLOR, HTTPS_PROXY, HTTP_PROXY, NO_PROXY.

${topicsList()}
Examples:
  lk auth login --base-url https://tracker.example.org
  lk library --phase IN_PROGRESS
  lk library --all --json | jq -r '.[].work.title'`),
  );
  return program;
}

/** The config's `color` for error lines, or auto when it is unset, unreadable or not one of the three. */
function storedColorMode(env: NodeJS.ProcessEnv): ColorMode {
  try {
    const stored = readStoredConfig(configDir(env)).defaults?.color;
    return stored === 'always' || stored === 'never' ? stored : 'auto';
  } catch {
    return 'auto';
  }
}

/** Under every subcommand's options: where the global ones are. */
export const GLOBAL_OPTIONS_LINE = 'Global options (--json, --fields, --profile, -q, …): see `lk --help`.';

/**
 * `lk --help` exactly as commander prints it `width` columns wide. The build stores it, so that bin/lk.cjs answers
 * `lk --help` without loading commander and the command tree.
 */
export async function topLevelHelp(width = 80): Promise<string> {
  let text = '';
  // No environment: the stored help is the same for everyone, with no alias or extension of the machine that built it.
  (await makeProgram({ ...processFactory(), env: {} }))
    .configureOutput({ writeOut: (chunk) => (text += chunk), getOutHelpWidth: () => width, getOutHasColors: () => false })
    .outputHelp();
  return text;
}

/**
 * The man pages, made by the build (scripts/build.mjs) from the whole tree: lk(1) and one per command. The program is
 * made as wide as a line can be, so that the commands' notes come unwrapped, for roff to fill.
 */
export async function manPages(): Promise<ManPage[]> {
  return pagesOf(await wideProgram(), VERSION);
}

/** The same manual in Markdown, for docs/ (`npm run man` writes it there), and the README's table of commands. */
export async function markdownManual(): Promise<{ pages: DocPage[]; commandTable: string }> {
  const program = await wideProgram();
  return { pages: markdownDocs(program), commandTable: commandTable(program) };
}

/** The whole tree, with no alias or extension of this machine, its notes unwrapped. */
async function wideProgram(): Promise<Command> {
  const wide = Object.assign(new PassThrough(), { isTTY: true, columns: 100_000 });
  return makeProgram({ ...processFactory(), env: {}, stdout: wide });
}

/** The one place that turns any failure into its message and exit code (lk help exit-codes). */
export function reportError(
  error: unknown,
  stderr: NodeJS.WritableStream & { isTTY?: boolean },
  debug: boolean,
  env: NodeJS.ProcessEnv,
  argv: string[],
): number {
  const paint = (text: string) => paintErrorLines(text, stderr, env, argv, () => storedColorMode(env));
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return ExitCode.ok;
    return ExitCode.usage; // commander has printed its one-line message through outputError
  }
  // The reader quit the pager before the end: done, not failed.
  if (error instanceof LkError && error.exitCode === ExitCode.ok) return ExitCode.ok;
  if (error instanceof SilentExit) return error.exitCode;
  if (error instanceof LkError) {
    const hint = hintFor(error);
    stderr.write(paint(`lk: ${shownText(messageFor(error))}\n${hint ? `${shownText(hint)}\n` : ''}`));
    if (debug) stderr.write(shownStack(error));
    return error.exitCode;
  }
  if (isSqliteLocked(error)) {
    stderr.write(paint(`lk: the mirror is locked by another program writing to it\n${LOCKED_HINT}\n`));
    return ExitCode.failure;
  }
  if (error instanceof RangeError && /call stack/i.test(error.message)) {
    stderr.write(paint('lk: the response is nested too deeply to show\n'));
    return ExitCode.failure;
  }
  const message = error instanceof Error ? error.message : String(error);
  stderr.write(paint(`lk: unexpected error: ${shownText(message)}\n`));
  if (debug && error instanceof Error) stderr.write(shownStack(error));
  else stderr.write('Run again with LK_DEBUG=1 for details.\n');
  return ExitCode.failure;
}

/** The longest error line: a server's 5 MB message says nothing more than its first few hundred characters. */
const MAX_ERROR_TEXT = 1000;

/**
 * Text of an error line, which may quote the server: cut to a sane length, anything key-shaped masked, escapes
 * defused, and on one line, so that a server cannot forge a second `lk:` line.
 */
function shownText(text: string): string {
  const cut = text.length > MAX_ERROR_TEXT ? `${text.slice(0, MAX_ERROR_TEXT)}…` : text;
  return sanitizeText(redactKeys(cut));
}

/** LK_DEBUG's stack: the message as shownText gives it, then the frames, defused and masked too. */
function shownStack(error: Error): string {
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  return `${sanitizeMessage(redactKeys([`${error.name}: ${shownText(error.message)}`, ...frames].join('\n')))}\n`;
}

/** The real process as a factory: its streams, environment and clock, and the signal that Ctrl-C aborts. */
export function processFactory(signal?: AbortSignal): Factory {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    argv: process.argv,
    now: Date.now,
    sleep,
    signal,
  };
}

/** Help wraps to the terminal, and to 80 columns in a pipe (commander's own rule, on the factory's stream). */
function helpWidth(factory: Factory): number {
  return factory.stdout.isTTY && factory.stdout.columns ? factory.stdout.columns : 80;
}

/** One run of lk on the given command line: every failure becomes its message on stderr and its exit code (lk help exit-codes). */
export async function runProgram(argv: string[], factory: Factory): Promise<number> {
  const code = await runLine(argv, factory);
  // A run started by lk schedule's job (LK_SCHEDULE_JOB) leaves its result for lk schedule list.
  recordScheduledRun(factory.env, code, factory.now());
  return code;
}

async function runLine(argv: string[], factory: Factory): Promise<number> {
  try {
    // An alias becomes the words it stands for, or runs through sh; an extension runs in lk's place (src/commands/local.ts).
    const routed = await routeLine(argv, factory);
    if ('exitCode' in routed) return routed.exitCode;
    const run = routed.argv === argv ? factory : { ...factory, argv: routed.argv };
    await (await makeProgram(run, routed.argv)).parseAsync(routed.argv);
    return ExitCode.ok;
  } catch (error) {
    const debug = factory.env.LK_DEBUG === '1';
    return reportError(error, factory.stderr, debug, factory.env, argv);
  }
}

export async function main(argv: string[] = process.argv): Promise<number> {
  const abort = new AbortController();
  // Ctrl-C, a closed terminal, a kill from cron or systemd: remove temporary files, then exit 128 + the signal.
  // `on`, not `once`: a second Ctrl-C during the exit must not meet the default handler and kill the cleanup.
  let exiting = false;
  const stopOn = (signal: NodeJS.Signals, code: number) =>
    process.on(signal, () => {
      if (exiting) return;
      exiting = true;
      if (signal !== 'SIGHUP' && endsCleanlyOnSignal()) {
        abort.abort();
        // The run ends itself at once; should anything hold the loop, the promise of exit 0 within 2 s holds.
        setTimeout(() => process.exit(ExitCode.ok), 1500).unref();
        return;
      }
      abort.abort();
      runInterruptCleanups();
      if (signal === 'SIGINT') process.stderr.write('\nlk: interrupted\n');
      process.exit(code);
    });
  stopOn('SIGINT', ExitCode.interrupted);
  stopOn('SIGTERM', 143);
  stopOn('SIGHUP', 129);
  // A closed pipe (`lk library --all | head`) is the reader being done, not a failure.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(ExitCode.ok);
  });
  return runProgram(argv, processFactory(abort.signal));
}
