import { formatMoment, localMoment } from '../util/units.js';
import { installedLines, nextCronRun } from './crontab.js';
import type { JobName } from './jobs.js';
import { lastRun } from './last-run.js';
import { jobId } from './plan.js';
import { installedUnits, nextElapse, systemdAnswers } from './systemd.js';
import { findTool } from './tool.js';

/** A job lk installed, as `lk schedule list --json` shows it. */
export interface ListedJob {
  readonly job: JobName;
  readonly profile: string;
  readonly every: string;
  readonly scheduler: 'systemd' | 'cron';
  /** The next run as the scheduler has it (systemd's own wording; for cron, the local time), null when not known. */
  readonly next: string | null;
  /** The last run's exit status and when it ended (ISO 8601), as the run recorded it; null before the first. */
  readonly last: { readonly exitCode: number; readonly at: string } | null;
}

/** Every job of every profile that lk installed: systemd's timers in the unit folder, then the crontab's marked lines. */
export async function listJobs(env: NodeJS.ProcessEnv, now: number): Promise<ListedJob[]> {
  const last = (job: JobName, profile: string) => {
    const run = lastRun(env, jobId(job, profile));
    return run ? { exitCode: run.exitCode, at: new Date(run.at).toISOString() } : null;
  };
  const systemctl = findTool('systemctl', env);
  const answers = await systemdAnswers(systemctl, env);
  const listed: ListedJob[] = [];
  for (const unit of installedUnits(env)) {
    const next = answers ? ((await nextElapse(systemctl!, unit.unit, env)) ?? null) : null;
    listed.push({ job: unit.job, profile: unit.profile, every: unit.every, scheduler: 'systemd', next, last: last(unit.job, unit.profile) });
  }
  const crontab = findTool('crontab', env);
  for (const line of crontab === undefined ? [] : await installedLines(crontab, env)) {
    const next = nextCronRun(line, now);
    listed.push({
      job: line.job,
      profile: line.profile,
      every: line.every,
      scheduler: 'cron',
      next: next === undefined ? null : new Date(next).toISOString(),
      last: last(line.job, line.profile),
    });
  }
  return listed;
}

/** For a person: a few lines a job, narrow enough for any terminal. */
export function listScreen(jobs: readonly ListedJob[], now: number): string {
  if (jobs.length === 0) return 'No jobs: add one with lk schedule add sync|backup|notify.\n';
  const when = (iso: string) => formatMoment(Date.parse(iso), now);
  return jobs
    .map((job) => {
      const next = job.next === null ? 'not known' : job.scheduler === 'cron' ? when(job.next) : job.next;
      const last = job.last === null ? 'not yet' : `exit ${job.last.exitCode}, ${localMoment(Date.parse(job.last.at))}`;
      return `${job.job} (profile ${job.profile}), every ${job.every}, by ${job.scheduler}\n  next run: ${next}\n  last run: ${last}\n`;
    })
    .join('');
}
