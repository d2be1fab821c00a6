import { randomInt } from 'node:crypto';
import { findExecutable } from '../util/executable.js';
import { markOf, readMark, type Marked } from './marker.js';
import type { JobPlan } from './plan.js';
import { runTool, toolFailed } from './tool.js';

/**
 * A job as one crontab line, for a machine whose systemd does not answer: at a minute (and hour) picked at random when
 * it is added, so that many machines do not call the API at the same second; `flock -n` on the job's lock file, so
 * that a run still going when the next is due makes that one skip; the run's output left to cron (mailed when there
 * is any: -q leaves only errors, and the summaries on stdout are dropped); the mark at the end, a comment for sh.
 */

/** sh's quoting, and cron's: `%` is a line break to cron unless escaped. */
function shellWord(word: string): string {
  const quoted = /^[A-Za-z0-9_./:=@+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
  return quoted.replace(/%/g, '\\%');
}

/** The line's first five fields: minutes apart within the hour, or hours apart within the day, from a random start. */
function cronTime(plan: JobPlan): string {
  const { unit, count } = plan.every;
  if (unit === 'minutes') return `${randomInt(count)}-59/${count} * * * *`;
  const minute = randomInt(60);
  if (count === 1) return `${minute} * * * *`;
  if (count === 24) return `${minute} ${randomInt(24)} * * *`;
  return `${minute} ${randomInt(count)}-23/${count} * * *`;
}

export function crontabLine(plan: JobPlan, env: NodeJS.ProcessEnv): string {
  // flock by its absolute path where this machine has one (cron's PATH is short), else by name.
  const flock = findExecutable('flock', env) ?? 'flock';
  const assignments = plan.env.map(([name, value]) => `${name}=${shellWord(value)}`);
  const command = [...assignments, shellWord(flock), '-n', shellWord(plan.lockFile), ...plan.command.map(shellWord)].join(' ');
  return `${cronTime(plan)} ${command} >/dev/null ${markOf(plan)}`;
}

/** The user's crontab as `crontab -l` prints it; empty when there is none yet. */
async function readTable(crontab: string, env: NodeJS.ProcessEnv): Promise<string> {
  const answer = await runTool(crontab, ['-l'], env);
  if (answer.code === 0) return answer.stdout;
  if (/no crontab/i.test(answer.stderr)) return '';
  throw toolFailed('crontab -l', answer);
}

async function writeTable(crontab: string, text: string, env: NodeJS.ProcessEnv): Promise<void> {
  const answer = await runTool(crontab, ['-'], env, text);
  if (answer.code !== 0) throw toolFailed('crontab -', answer);
}

const lines = (table: string) => table.split('\n').filter((line, at, all) => !(line === '' && at === all.length - 1));
const isJob = (line: string, job: string, profile: string) => {
  const mark = readMark(line);
  return mark !== undefined && mark.job === job && mark.profile === profile;
};

/** Puts the job's line in the user's crontab, in place of the job's earlier line if any; every other line kept. */
export async function installLine(plan: JobPlan, line: string, crontab: string, env: NodeJS.ProcessEnv): Promise<void> {
  const kept = lines(await readTable(crontab, env)).filter((each) => !isJob(each, plan.job, plan.profile));
  await writeTable(crontab, [...kept, line, ''].join('\n'), env);
}

/** Takes the job's line out of the user's crontab (every other line kept); false when it had none. */
export async function removeLine(job: string, profile: string, crontab: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const all = lines(await readTable(crontab, env));
  const kept = all.filter((each) => !isJob(each, job, profile));
  if (kept.length === all.length) return false;
  await writeTable(crontab, kept.length === 0 ? '' : [...kept, ''].join('\n'), env);
  return true;
}

export interface CronJob extends Marked {
  /** The line's first two fields, minute and hour (the rest are `*` in a line lk wrote). */
  readonly minute: string;
  readonly hour: string;
}

export async function installedLines(crontab: string, env: NodeJS.ProcessEnv): Promise<CronJob[]> {
  return lines(await readTable(crontab, env)).flatMap((line) => {
    const mark = readMark(line);
    const [minute, hour] = line.trim().split(/\s+/);
    return mark && minute && hour ? [{ ...mark, minute, hour }] : [];
  });
}

/** Whether a value fits a cron field of the forms lk writes: `*`, `N`, `A-B/S`. */
function fits(field: string, value: number): boolean {
  if (field === '*') return true;
  const found = /^(\d+)(?:-(\d+)\/(\d+))?$/.exec(field);
  if (!found) return false;
  const start = Number(found[1]);
  if (found[2] === undefined) return value === start;
  return value >= start && value <= Number(found[2]) && (value - start) % Number(found[3]) === 0;
}

/** The next minute (local time, as cron reads it) a line of lk's runs at, within two days; undefined for a line lk did not write. */
export function nextCronRun(job: CronJob, now: number): number | undefined {
  const minute = 60_000;
  let at = Math.floor(now / minute) * minute + minute;
  for (let step = 0; step < 2 * 24 * 60; step++, at += minute) {
    const date = new Date(at);
    if (fits(job.minute, date.getMinutes()) && fits(job.hour, date.getHours())) return at;
  }
  return undefined;
}
