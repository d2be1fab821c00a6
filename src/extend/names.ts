import { storedAliases } from '../config/aliases.js';
import { hasExtensions, listExtensions } from './extensions.js';

/**
 * The names of this machine's aliases and extensions, for `lk completion --aliases` and `--extensions` (the scripts
 * offer them beside lk's commands at Tab time) and for bin/lk.cjs, which answers `lk --help` from the stored help
 * only when there are none. Built on its own (dist/local-names.cjs) so that the launcher answers without the program.
 */
export function aliasLines(env: NodeJS.ProcessEnv = process.env): string {
  return Object.keys(storedAliases(env))
    .filter((name) => /^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(name))
    .sort()
    .map((name) => `${name}\n`)
    .join('');
}

/** The extensions that run: one that an alias of its name hides (the alias wins) is not offered a second time. */
export function extensionLines(env: NodeJS.ProcessEnv = process.env): string {
  const aliases = storedAliases(env);
  return listExtensions(env)
    .filter(({ name }) => !Object.hasOwn(aliases, name))
    .map(({ name }) => `${name}\n`)
    .join('');
}

/** Whether `lk --help` has sections of this machine's own to show. */
export function hasLocalCommands(env: NodeJS.ProcessEnv = process.env): boolean {
  // (With no alias, no extension is hidden by one: PATH alone says.)
  return aliasLines(env) !== '' || hasExtensions(env);
}
