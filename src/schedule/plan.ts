import { isAbsolute, join, resolve } from 'node:path';
import { cacheDir, configDir, dataDir } from '../config/paths.js';
import type { KeySource } from '../config/resolve.js';
import { AuthError, UsageError } from '../util/errors.js';
import { JOBS, type JobName } from './jobs.js';
import type { Interval } from './interval.js';
import { SCHEDULE_JOB_VARIABLE, scheduleStateDir } from './last-run.js';

/** The profile lk falls back to: its jobs are lk-NAME; another profile's lk-PROFILE-NAME. */
const DEFAULT_PROFILE = 'default';

/** One job as it will be installed: the same for a systemd unit and a crontab line. */
export interface JobPlan {
  readonly job: JobName;
  readonly profile: string;
  /** `sync` for the default profile, `work-sync` for the profile work: LK_SCHEDULE_JOB's value. */
  readonly id: string;
  /** `lk-` and the id: the systemd unit's name. */
  readonly unit: string;
  readonly every: Interval;
  /** The run's command line, by absolute paths. */
  readonly command: readonly string[];
  /** What the run's environment needs besides the scheduler's own: never the key, at most the file holding it. */
  readonly env: readonly (readonly [string, string])[];
  /** Under cron, `flock -n` on this file keeps two runs of the job from overlapping. */
  readonly lockFile: string;
}

const PROFILE_NAME = /^[A-Za-z0-9._]+(-[A-Za-z0-9._]+)*$/;

/** A job's id from its profile: the name of its unit, its crontab mark and its state files. */
export function jobId(job: JobName, profile: string): string {
  return profile === DEFAULT_PROFILE ? job : `${profile}-${job}`;
}

/** Refuses (exit 2) a profile whose name cannot be part of a unit's name. */
export function checkProfileName(profile: string): void {
  if (!PROFILE_NAME.test(profile)) {
    throw new UsageError(
      `profile "${profile}" cannot be scheduled: its name becomes part of the job's (lk-PROFILE-NAME), so letters, digits, ., _ and - only`,
    );
  }
}

/** --dir for backup: the repository's folder, absolute as of now (a job runs elsewhere); only for backup. */
export function backupDir(job: JobName, dir: string | undefined, cwd: string): string | undefined {
  if (job !== 'backup') {
    if (dir !== undefined) throw new UsageError(`--dir is for backup only (${job} writes no folder)`);
    return undefined;
  }
  if (dir === undefined || dir === '') throw new UsageError('backup needs --dir DIR: the git repository the exports are committed to');
  if (/[\n\r]/.test(dir)) throw new UsageError('--dir: a folder name with a line break cannot be written into a job');
  return isAbsolute(dir) ? dir : resolve(cwd, dir);
}

/** Where the key of the job's run comes from, as this run finds it: `settings.key()`'s source, and whether the profile keeps one. */
export interface KeyPlace {
  readonly source: KeySource;
  readonly profileKeepsKey: boolean;
}

/**
 * The variables the job's environment gets for its key: none when the profile keeps it (the keyring, or lk's 0600
 * config, which the job's lk reads itself), LK_API_KEY_FILE when a file holds it. A key that lives only in this
 * shell's LK_API_KEY (or the lk that started an extension) is refused: lk never writes a key into a job.
 */
export function keyVariables(place: KeyPlace, env: NodeJS.ProcessEnv, cwd: string): [string, string][] {
  const file = env.LK_API_KEY_FILE;
  if (place.source === 'LK_API_KEY_FILE' || (place.source === 'LK_API_KEY' && file)) return [['LK_API_KEY_FILE', resolve(cwd, file!)]];
  if (place.source === 'config' || place.source === 'keyring' || place.profileKeepsKey) return [];
  throw new AuthError(
    `the key comes only from ${place.source} here, which a scheduled job would not have (and lk never writes a key into a job)`,
    "Log in with `lk auth login` (the key is kept in the keyring or lk's 0600 config), or keep the key in a file and set LK_API_KEY_FILE.",
  );
}

/** lk's folders, named in the job when this run's environment moved them (the scheduler's would not). */
function folderVariables(env: NodeJS.ProcessEnv, cwd: string): [string, string][] {
  const moved: [string, string | undefined, string][] = [
    ['LK_CONFIG_DIR', env.LK_CONFIG_DIR || env.XDG_CONFIG_HOME, configDir(env)],
    ['LK_CACHE_DIR', env.LK_CACHE_DIR || env.XDG_CACHE_HOME, cacheDir(env)],
    ['LK_DATA_DIR', env.LK_DATA_DIR || env.XDG_DATA_HOME, dataDir(env)],
    ['LK_CA_FILE', env.LK_CA_FILE, env.LK_CA_FILE ?? ''],
  ];
  return moved.filter(([, given]) => given).map(([name, , value]) => [name, resolve(cwd, value)]);
}

export interface PlanInput {
  readonly job: JobName;
  readonly profile: string;
  readonly every: Interval;
  readonly dir: string | undefined;
  /** lk's own command (ownCommand()). */
  readonly lk: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly key: KeyPlace;
  /** The instance, when this run's comes from --base-url or LK_BASE_URL rather than the profile. */
  readonly baseUrl: string | undefined;
}

export function planJob(input: PlanInput): JobPlan {
  const id = jobId(input.job, input.profile);
  const env: [string, string][] = [
    [SCHEDULE_JOB_VARIABLE, id],
    ...keyVariables(input.key, input.env, input.cwd),
    ...folderVariables(input.env, input.cwd),
    ...(input.baseUrl === undefined ? [] : [['LK_BASE_URL', input.baseUrl] as [string, string]]),
  ];
  return {
    job: input.job,
    profile: input.profile,
    id,
    unit: `lk-${id}`,
    every: input.every,
    // The profile always named: `lk auth switch` later must not move a job to another account.
    command: [...input.lk, ...JOBS[input.job].words(input.dir), '--profile', input.profile],
    env,
    lockFile: join(resolve(input.cwd, scheduleStateDir(input.env)), `lk-${id}.lock`),
  };
}
