import { storedAliases } from '../config/aliases.js';
import { normaliseBaseUrl } from '../config/base-url.js';
import { configDir } from '../config/paths.js';
import { Settings } from '../config/resolve.js';
import { readStoredConfig, type StoredConfig } from '../config/store.js';
import type { Factory } from '../context.js';
import { expandAlias } from '../extend/expand.js';
import { extensionEnv, findExtension, listExtensions } from '../extend/extensions.js';
import { runChild } from '../extend/run-child.js';
import { commandWord, isCommandName } from './index.js';

/**
 * What a command line names when its command is not one of lk's, decided before commander parses it: an alias
 * (`lk alias set`), expanded into lk's own words, or run through `sh`; else an extension, `lk-NAME` on PATH, run in
 * lk's place. A command of lk's always wins, then an alias, then an extension; a word that is none of them goes on
 * to commander, which says it is unknown (exit 2). Only such a word costs a read of the config file or of PATH.
 */
export async function routeLine(argv: string[], factory: Factory): Promise<{ argv: string[] } | { exitCode: number }> {
  const args = argv.slice(2);
  const word = commandWord(args, 0);
  if (!word || isCommandName(word.name)) return { argv };
  const before = args.slice(0, word.at);
  const after = args.slice(word.at + 1);
  const alias = storedAliases(factory.env)[word.name];
  if (alias !== undefined) {
    const expansion = expandAlias(word.name, alias, after);
    if (expansion.kind === 'lk') return { argv: [...argv.slice(0, 2), ...before, ...expansion.args] };
    // The alias's name is the script's $0, the arguments its "$@".
    return { exitCode: await runChild('sh', ['-c', expansion.script, word.name, ...expansion.args], factory.env, factory) };
  }
  const extension = findExtension(word.name, factory.env);
  if (extension) return { exitCode: await runChild(extension.path, after, extensionEnv(factory.env, instanceOf(before, factory.env)), factory) };
  return { argv };
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
  const aliases = Object.entries(storedAliases(env)).sort(([a], [b]) => a.localeCompare(b));
  const extensions = listExtensions(env).filter((extension) => !isCommandName(extension.name));
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
