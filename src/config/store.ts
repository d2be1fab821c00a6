import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { folderProblem, ownershipProblem } from '../util/private-folder.js';
import { join } from 'node:path';
import { LkError } from '../util/errors.js';
import { CONFIG_FILE_NAME } from './paths.js';
import type { SettingName, SettingValue } from './settings.js';

export interface StoredProfile {
  baseUrl?: string;
  key?: string;
  allowHttp?: boolean;
  account?: string;
  /** The key lives in the system keyring (config/keyring.ts), not in this file. */
  keyring?: boolean;
}

export interface StoredConfig {
  defaults?: Partial<Record<SettingName, SettingValue>>;
  /** The profile used when neither --profile nor LK_PROFILE names one (`lk auth switch`). */
  defaultProfile?: string;
  profiles?: Record<string, StoredProfile>;
  /** `lk alias set`: name → expansion (src/config/aliases.ts), for every profile. */
  aliases?: Record<string, string>;
}

export const DEFAULT_PROFILE = 'default';

export function configFilePath(dir: string): string {
  return join(dir, CONFIG_FILE_NAME);
}

/**
 * Reads the config file directly: every command needs it, and loading conf (with its schema validator) for a read
 * would cost more than the rest of start-up. Writes go through conf.
 */
export function readStoredConfig(dir: string): StoredConfig {
  const file = configFilePath(dir);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new LkError(`cannot read ${file}: ${(error as Error).message}`);
  }
  // The config names the instance the key is sent to: one others could have written is not read.
  const problem = folderProblem(dir) ?? ownershipProblem(file, statSync(file));
  if (problem) throw untrusted(problem, dir);
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' ? (parsed as StoredConfig) : {};
  } catch {
    throw new LkError(`${file} is not valid JSON`, 1, 'Fix or remove it, then log in again.');
  }
}

/** Like ssh: a key file that others can read deserves a warning. Returns the warning, if any. */
export function permissionWarning(dir: string): string | undefined {
  const file = configFilePath(dir);
  try {
    const mode = statSync(file).mode & 0o777;
    if (mode & 0o077) {
      return `lk: warning: ${file} is readable by others (mode ${mode.toString(8).padStart(4, '0')}); run: chmod 600 ${file}`;
    }
  } catch {
    // no file, nothing to warn about
  }
  return undefined;
}

function untrusted(problem: string, dir: string): LkError {
  return new LkError(problem, 1, `lk does not use a config others can change. If the folder is yours, run: chmod 700 ${dir}`);
}

/**
 * Applies `change` to the stored config through conf, then pins the folder to 0700 and the file to 0600. A folder
 * that is a symlink is the user's arrangement: its target is checked, never chmodded (it may be a shared folder).
 */
export async function updateStoredConfig(dir: string, change: (config: StoredConfig) => void): Promise<void> {
  let linked = false;
  try {
    linked = lstatSync(dir).isSymbolicLink();
  } catch {
    // not there yet: created below
  }
  if (linked) {
    const problem = folderProblem(dir);
    if (problem) throw untrusted(problem, dir);
  } else {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
  }
  // conf and its schema validator, a third of the program's size, in their own file: only a run that writes the config.
  const { default: Conf } = await import('conf');
  const store = new Conf<StoredConfig>({
    cwd: dir,
    configName: CONFIG_FILE_NAME.replace(/\.json$/, ''),
    projectName: 'lk',
    projectSuffix: '',
    configFileMode: 0o600,
    accessPropertiesByDotNotation: false,
  });
  const next = structuredClone(store.store) as StoredConfig;
  change(next);
  store.store = next;
  const file = configFilePath(dir);
  if (existsSync(file)) chmodSync(file, 0o600);
}
