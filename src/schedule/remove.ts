import { removeLine } from './crontab.js';
import type { JobName } from './jobs.js';
import { jobId } from './plan.js';
import { installedUnits, removeUnits } from './systemd.js';
import { findTool } from './tool.js';

/** Removes what add installed for the job of this profile, wherever it is (its units, its crontab line); what was removed. */
export async function removeJob(job: JobName, profile: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const removed: string[] = [];
  const unit = `lk-${jobId(job, profile)}`;
  if (installedUnits(env).some((installed) => installed.unit === unit)) {
    await removeUnits(unit, findTool('systemctl', env), env);
    removed.push(`${unit}.timer and ${unit}.service`);
  }
  const crontab = findTool('crontab', env);
  if (crontab !== undefined && (await removeLine(job, profile, crontab, env))) removed.push('its crontab line');
  return removed;
}
