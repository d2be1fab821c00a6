import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir } from '../config/paths.js';
import { replaceStateFileSync } from '../util/atomic-file.js';

/**
 * The last result of a scheduled job, for `lk schedule list`: a job's lk runs with LK_SCHEDULE_JOB=ID in its
 * environment (the unit or the crontab line sets it), and records its exit status and time when it ends. The same
 * for cron and systemd, and read without asking either.
 */
export const SCHEDULE_JOB_VARIABLE = 'LK_SCHEDULE_JOB';

export interface LastRun {
  readonly exitCode: number;
  /** When it ended, epoch milliseconds. */
  readonly at: number;
}

/** The folder of the jobs' lock files and last results, under lk's cache folder. */
export function scheduleStateDir(env: NodeJS.ProcessEnv): string {
  return join(cacheDir(env), 'schedule');
}

/** A job's id as LK_SCHEDULE_JOB names it: a word of letters, digits, `.`, `_` and `-` (anything else is not ours). */
const JOB_ID = /^[A-Za-z0-9._-]+$/;

/** At the end of a run started by a schedule: its result, kept as a courtesy (a run never fails for it). */
export function recordScheduledRun(env: NodeJS.ProcessEnv, exitCode: number, now: number): void {
  const id = env[SCHEDULE_JOB_VARIABLE];
  if (id === undefined || !JOB_ID.test(id)) return;
  replaceStateFileSync(join(scheduleStateDir(env), `lk-${id}.last`), `${JSON.stringify({ exitCode, at: now })}\n`);
}

export function lastRun(env: NodeJS.ProcessEnv, id: string): LastRun | undefined {
  try {
    const read = JSON.parse(readFileSync(join(scheduleStateDir(env), `lk-${id}.last`), 'utf8')) as Partial<LastRun>;
    return typeof read.exitCode === 'number' && typeof read.at === 'number' ? { exitCode: read.exitCode, at: read.at } : undefined;
  } catch {
    return undefined;
  }
}
