import { isJobName, type JobName } from './jobs.js';
import type { JobPlan } from './plan.js';

/**
 * The mark on everything `lk schedule add` installs (a crontab line's end, a timer's first line), worded as the command
 * that made it: `# lk schedule sync --every 1h`, `--profile work` added for a profile other than the default. It is
 * how list finds lk's jobs among the user's own, and how remove and a second add touch exactly those.
 */
export interface Marked {
  readonly job: JobName;
  readonly every: string;
  readonly profile: string;
}

const MARK = /# lk schedule (\S+) --every (\S+) --profile (\S+)$/;

export function markOf(plan: JobPlan): string {
  return `# lk schedule ${plan.job} --every ${plan.every.text} --profile ${plan.profile}`;
}

/** The job a line is marked with, or undefined for a line that is not lk's. */
export function readMark(line: string): Marked | undefined {
  const found = MARK.exec(line.trimEnd());
  if (!found || !isJobName(found[1]!)) return undefined;
  return { job: found[1], every: found[2]!, profile: found[3]! };
}
