import { storedAliases } from '../config/aliases.js';
import { normaliseBaseUrl } from '../config/base-url.js';
import { configDir } from '../config/paths.js';
import { Settings } from '../config/resolve.js';
import { readStoredConfig, type StoredConfig } from '../config/store.js';
import type { Factory } from '../context.js';
import { expandAlias } from '../extend/expand.js';
import { extensionEnv, findExtension, listExtensions } from '../extend/extensions.js';
import { runChild } from '../extend/run-child.js';
import { LkError, UsageError } from '../util/errors.js';
import { findExecutable } from '../util/executable.js';
import { commandWord, isCommandName } from './index.js';

/**
 * What a command line names when its command is not one of lk's, decided before commander parses it: an alias
 * (`lk alias set`), expanded into lk's own words, or run through `sh`; else an extension, `lk-NAME` on PATH, run in
 * lk's place. A command of lk's always wins, then an alias, then an extension; a word that is none of them goes on
 * to commander, which says it is unknown (exit 2). Only such a word costs a read of the config file or of PATH.
 * An alias's words are routed again, so that an alias may name an extension (`lk alias set r 'reading 3'`).
 */
export async function routeLine(argv: string[], factory: Factory): Promise<{ argv: string[] } | { exitCode: number }> {
  let line = argv;
  const chain = aliasChain(factory.env);
  const aliases = storedAliases(factory.env); // the config read once, however many aliases the line goes through
  for (;;) {
    const args = line.slice(2);
    const word = commandWord(args, 0);
    if (!word || isCommandName(word.name)) return { argv: line };
    const before = args.slice(0, word.at);
    const after = args.slice(word.at + 1);
    const alias = aliases[word.name];
    const extension = alias === undefined ? findExtension(word.name, factory.env) : undefined;
    if (alias === undefined && extension === undefined) return { argv: line };
    enterChain(chain, word.name);
    if (alias !== undefined) {
      const expansion = expandAlias(word.name, alias, after);
      if (expansion.kind === 'lk') {
        line = [...line.slice(0, 2), ...before, ...expansion.args];
        continue;
      }
      // The alias's name is the script's $0, the arguments its "$@".
      return { exitCode: await runInPlace(shellPath(factory.env), ['-c', expansion.script, word.name, ...expansion.args], before, chain, factory) };
    }
    return { exitCode: await runInPlace(extension!.path, after, before, chain, factory) };
  }
}

/**
 * The aliases and extensions this line went through, in this lk and in the lks that ran it (LK_ALIAS_CHAIN, set for
 * each child): a shell alias or an extension that runs `lk` with its own name again (or two that run each other) is
 * stopped at once instead of nesting processes without end; gh refuses an alias that expands to itself likewise.
 */
const CHAIN_VARIABLE = 'LK_ALIAS_CHAIN';
const MAX_CHAIN = 8;

function aliasChain(env: NodeJS.ProcessEnv): string[] {
  return (env[CHAIN_VARIABLE] ?? '').split(' ').filter((name) => name !== '');
}

function enterChain(chain: string[], name: string): void {
  const looped = chain.includes(name);
  chain.push(name);
  if (looped) throw new UsageError(`alias loop: ${chain.join(' → ')} (an alias or extension that runs itself never ends)`);
  if (chain.length > MAX_CHAIN) throw new UsageError(`aliases and extensions nest more than ${MAX_CHAIN} deep: ${chain.join(' → ')}`);
}

/** `sh` from PATH's absolute folders only (src/util/executable.ts): never a `./sh` of the current folder. */
function shellPath(env: NodeJS.ProcessEnv): string {
  const sh = findExecutable('sh', env);
  if (sh === undefined) throw new LkError('a shell alias needs sh, and there is none in the absolute folders of PATH');
  return sh;
}

/**
 * Runs an extension or a shell alias's `sh` with the environment of src/extend/extensions.ts (extensionEnv), the
 * chain so far, and, when this lk read its key from LK_API_KEY_FILE, the socket that lends it (src/config/key-socket.ts)
 * in place of the file.
 */
async function runInPlace(file: string, args: string[], globals: readonly string[], chain: readonly string[], factory: Factory): Promise<number> {
  const env = { ...extensionEnv(factory.env, instanceOf(globals, factory.env)), [CHAIN_VARIABLE]: chain.join(' ') };
  const keyFile = factory.env.LK_API_KEY?.trim() ? undefined : factory.env.LK_API_KEY_FILE;
  const lent = keyFile ? await (await import('../config/key-socket.js')).lendKey(keyFile) : undefined;
  try {
    return await runChild(file, args, { ...env, ...lent?.env }, factory);
  } finally {
    await lent?.close();
  }
}

/** The profile and instance lk would use, with the --profile and --base-url typed before the extension's name. */
function instanceOf(globals: readonly string[], env: NodeJS.ProcessEnv): { profile: string; baseUrl: string | undefined } {
  let stored: StoredConfig = {};
  try {
    stored = readStoredConfig(configDir(env));
  } catch {
    // An unreadable config names no profile or instance; the extension's own lk runs will say what is wrong.
  }
  const settings = new Settings(stored, { profile: flagValue(globals, '--profile'), baseUrl: flagValue(globals, '--base-url') }, env, configDir(env));
  let raw: string | undefined;
  try {
    raw = settings.baseUrlChoice().raw;
    return { profile: settings.profileName, baseUrl: raw === undefined ? undefined : normaliseBaseUrl(raw) };
  } catch {
    return { profile: settings.profileName, baseUrl: raw };
  }
}

/** `--flag value` or `--flag=value` among the words, the last one given. */
function flagValue(words: readonly string[], flag: string): string | undefined {
  let value: string | undefined;
  words.forEach((word, at) => {
    if (word === flag && at + 1 < words.length) value = words[at + 1];
    else if (word.startsWith(`${flag}=`)) value = word.slice(flag.length + 1);
  });
  return value;
}

/**
 * The aliases and extensions of this machine, for `lk --help` under headings of their own (empty when there are
 * none). bin/lk.cjs answers `lk --help` from the stored help only when this is empty (src/extend/names.ts).
 */
export function localCommandsHelp(env: NodeJS.ProcessEnv): string {
  const stored = storedAliases(env);
  const aliases = Object.entries(stored).sort(([a], [b]) => a.localeCompare(b));
  // An extension hidden by a command of lk or by an alias (which win over it) does not run: not listed as one.
  const extensions = listExtensions(env).filter((extension) => !isCommandName(extension.name) && !Object.hasOwn(stored, extension.name));
  const section = (heading: string, rows: [string, string][]) => {
    const width = Math.max(...rows.map(([name]) => name.length));
    return `\n${heading}\n${rows.map(([name, what]) => `  ${name.padEnd(width)}  ${what}`).join('\n')}`;
  };
  return [
    aliases.length > 0 ? section('Aliases (lk alias list):', aliases) : '',
    extensions.length > 0
      ? section(
          'Extensions (lk extension list):',
          extensions.map(({ name, path }) => [name, path]),
        )
      : '',
  ]
    .filter(Boolean)
    .join('\n');
}
