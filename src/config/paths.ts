import { homedir } from 'node:os';
import { join } from 'node:path';

/** docs/files.md: $LK_CONFIG_DIR, else $XDG_CONFIG_HOME/lk, else ~/.config/lk. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.LK_CONFIG_DIR) return env.LK_CONFIG_DIR;
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'lk');
  return join(homedir(), '.config', 'lk');
}

/** docs/files.md: $LK_CACHE_DIR, else $XDG_CACHE_HOME/lk, else ~/.cache/lk. */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.LK_CACHE_DIR) return env.LK_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'lk');
  return join(homedir(), '.cache', 'lk');
}

export const CONFIG_FILE_NAME = 'config.json';

/** docs/files.md: $LK_DATA_DIR, else $XDG_DATA_HOME/lk, else ~/.local/share/lk (the mirror). */
export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.LK_DATA_DIR) return env.LK_DATA_DIR;
  if (env.XDG_DATA_HOME) return join(env.XDG_DATA_HOME, 'lk');
  return join(homedir(), '.local', 'share', 'lk');
}

/** A mirror not synced for this long is worth a word even where nobody watches (doctor's warning, a read in cron). */
export const MIRROR_STALE_MS = 7 * 24 * 3600 * 1000;

/** The mirror `lk sync` writes by default: one SQLite file per profile (account + instance) under the data folder. */
export function mirrorPath(env: NodeJS.ProcessEnv, profile: string): string {
  return join(dataDir(env), `${profile.replace(/[^A-Za-z0-9._-]/g, '_')}.db`);
}
