import { configDir } from '../config/paths.js';
import { readStoredConfig } from '../config/store.js';

/**
 * Stored profile names, for `lk completion --profiles`, which the completion scripts run at Tab time. Also built on
 * its own (dist/profiles.cjs) so that bin/lk.cjs answers without loading the program. Nothing, rather than an
 * error, when the config cannot be read.
 */
export function storedProfileNames(env: NodeJS.ProcessEnv = process.env): string[] {
  try {
    const profiles = readStoredConfig(configDir(env)).profiles;
    if (!profiles || typeof profiles !== 'object') return [];
    // A name with a line break or control character cannot be offered one a line.
    return Object.keys(profiles)
      .filter((name) => name !== '' && !/[\u0000-\u001f\u007f]/.test(name))
      .sort();
  } catch {
    return [];
  }
}

export function profileLines(env: NodeJS.ProcessEnv = process.env): string {
  return storedProfileNames(env)
    .map((name) => `${name}\n`)
    .join('');
}
