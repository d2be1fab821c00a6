import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { crontabLine, installLine } from './crontab.js';
import type { JobPlan } from './plan.js';
import { installUnits, systemdAnswers, unitFiles, type UnitFile } from './systemd.js';
import { findTool } from './tool.js';

/** What `lk schedule add` did, or with --print would do: a systemd timer, a crontab line, or (neither found) a line to add by hand. */
export type Added =
  | { readonly scheduler: 'systemd'; readonly installed: boolean; readonly plan: JobPlan; readonly files: readonly UnitFile[] }
  | { readonly scheduler: 'cron' | 'none'; readonly installed: boolean; readonly plan: JobPlan; readonly line: string };

/** Installs the job (unless `print`): a systemd user timer where `systemctl --user` answers, else a crontab line. */
export async function addJob(plan: JobPlan, env: NodeJS.ProcessEnv, print: boolean): Promise<Added> {
  const systemctl = findTool('systemctl', env);
  if (await systemdAnswers(systemctl, env)) {
    const files = unitFiles(plan, env);
    if (!print) await installUnits(plan, files, systemctl!, env);
    return { scheduler: 'systemd', installed: !print, plan, files };
  }
  const line = crontabLine(plan, env);
  const crontab = findTool('crontab', env);
  if (crontab === undefined) return { scheduler: 'none', installed: false, plan, line };
  if (!print) {
    // flock makes the lock file, not its folder.
    mkdirSync(dirname(plan.lockFile), { recursive: true, mode: 0o700 });
    await installLine(plan, line, crontab, env);
  }
  return { scheduler: 'cron', installed: !print, plan, line };
}

/** For a person: what was installed (or would be, every file whole), or the line to add by hand. */
export function addedScreen(added: Added): string {
  const { plan } = added;
  const what = `lk ${plan.job} every ${plan.every.text} (profile ${plan.profile})`;
  if (added.scheduler === 'systemd') {
    if (added.installed) return `Installed ${plan.unit}.timer: ${what}; see it with lk schedule list, or journalctl --user -u ${plan.unit}.\n`;
    return added.files.map((file) => `# ${file.path}\n${file.text}`).join('\n');
  }
  if (added.scheduler === 'none') return `${added.line}\n`;
  if (added.installed) return `Added to your crontab: ${what}; see it with lk schedule list.\n`;
  return `# crontab line (crontab -e)\n${added.line}\n`;
}
