import { configDir } from './paths.js';
import { readStoredConfig, updateStoredConfig } from './store.js';

/**
 * Aliases (`lk alias set`) live in the config file, beside the defaults: one set per machine (per config folder), not
 * per profile, as gh keeps them.
 */
export function storedAliases(env: NodeJS.ProcessEnv): Record<string, string> {
  let aliases: unknown;
  try {
    aliases = readStoredConfig(configDir(env)).aliases;
  } catch {
    // A config that cannot be read has no aliases to offer; the command run says what is wrong with it.
    return {};
  }
  if (!aliases || typeof aliases !== 'object') return {};
  return Object.fromEntries(Object.entries(aliases).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

export async function storeAlias(dir: string, name: string, expansion: string | undefined): Promise<void> {
  await updateStoredConfig(dir, (config) => {
    const aliases = { ...config.aliases };
    if (expansion === undefined) delete aliases[name];
    else aliases[name] = expansion;
    if (Object.keys(aliases).length > 0) config.aliases = aliases;
    else delete config.aliases;
  });
}
