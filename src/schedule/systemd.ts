import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-file.js';
import { markOf, readMark, type Marked } from './marker.js';
import type { Interval } from './interval.js';
import type { JobPlan } from './plan.js';
import { runTool, toolFailed } from './tool.js';

/**
 * A job as a systemd user timer: lk-ID.service (a oneshot, which systemd never starts twice at once: no lock needed;
 * its output goes to the journal) and lk-ID.timer (Persistent=true: a run missed while the machine slept happens on
 * waking; a randomised delay, fixed per machine, so that many machines do not call the API at the same second while
 * one machine's runs stay an interval apart).
 */

/** Where systemd looks for a user's own units: $XDG_CONFIG_HOME/systemd/user, else ~/.config/systemd/user. */
export function unitDir(env: NodeJS.ProcessEnv): string {
  return join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'systemd', 'user');
}

export interface UnitFile {
  readonly path: string;
  readonly text: string;
}

/** systemd's quoting for a word of ExecStart= or Environment=: `%` and `$` doubled, quotes and backslashes escaped. */
function unitWord(word: string): string {
  const escaped = word.replace(/%/g, '%%').replace(/\$/g, '$$$$');
  if (/^[A-Za-z0-9_./:=@+,-]+$/.test(escaped)) return escaped;
  return `"${escaped.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function onCalendar(every: Interval): string {
  if (every.unit === 'minutes') return `*-*-* *:00/${every.count}:00`;
  if (every.count === 1) return '*-*-* *:00:00';
  if (every.count === 24) return '*-*-* 00:00:00';
  return `*-*-* 00/${every.count}:00:00`;
}

export function unitFiles(plan: JobPlan, env: NodeJS.ProcessEnv): UnitFile[] {
  const dir = unitDir(env);
  const what = `lk ${plan.job} every ${plan.every.text} (profile ${plan.profile})`;
  const service = [
    markOf(plan),
    `# Installed by lk schedule add; lk schedule remove ${plan.job} takes it away.`,
    '[Unit]',
    `Description=${what}`,
    '',
    '[Service]',
    'Type=oneshot',
    ...plan.env.map(([name, value]) => `Environment=${unitWord(`${name}=${value}`)}`),
    `ExecStart=${plan.command.map(unitWord).join(' ')}`,
    '',
  ];
  const timer = [
    markOf(plan),
    '[Unit]',
    `Description=${what}`,
    '',
    '[Timer]',
    `OnCalendar=${onCalendar(plan.every)}`,
    `RandomizedDelaySec=${plan.every.text}`,
    'FixedRandomDelay=true',
    'Persistent=true',
    '',
    '[Install]',
    'WantedBy=timers.target',
    '',
  ];
  return [
    { path: join(dir, `${plan.unit}.service`), text: service.join('\n') },
    { path: join(dir, `${plan.unit}.timer`), text: timer.join('\n') },
  ];
}

/** Whether the user's systemd answers (`systemctl --user` reaches a user manager): a machine without one has cron's way. */
export async function systemdAnswers(systemctl: string | undefined, env: NodeJS.ProcessEnv): Promise<boolean> {
  if (systemctl === undefined) return false;
  return (await runTool(systemctl, ['--user', 'show-environment'], env)).code === 0;
}

async function systemctlUser(systemctl: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const answer = await runTool(systemctl, ['--user', ...args], env);
  if (answer.code !== 0) throw toolFailed(`systemctl --user ${args.join(' ')}`, answer);
}

/** Writes the units and starts the timer; a second add of the same job replaces its units and restarts it. */
export async function installUnits(plan: JobPlan, files: readonly UnitFile[], systemctl: string, env: NodeJS.ProcessEnv): Promise<void> {
  mkdirSync(unitDir(env), { recursive: true });
  for (const file of files) await writeFileAtomic(file.path, file.text, { mode: 0o644 });
  await systemctlUser(systemctl, ['daemon-reload'], env);
  await systemctlUser(systemctl, ['enable', `${plan.unit}.timer`], env);
  await systemctlUser(systemctl, ['restart', `${plan.unit}.timer`], env);
}

/** A job's units as found in the unit folder: lk's own only (marked), by unit name. */
export interface InstalledUnit extends Marked {
  readonly unit: string;
}

export function installedUnits(env: NodeJS.ProcessEnv): InstalledUnit[] {
  let names: string[];
  try {
    names = readdirSync(unitDir(env));
  } catch {
    return [];
  }
  return names
    .filter((name) => /^lk-[A-Za-z0-9._-]+\.timer$/.test(name))
    .sort()
    .flatMap((name) => {
      let first: string;
      try {
        first = readFileSync(join(unitDir(env), name), 'utf8').split('\n')[0]!;
      } catch {
        return [];
      }
      const mark = readMark(first);
      return mark ? [{ ...mark, unit: name.slice(0, -'.timer'.length) }] : [];
    });
}

/** When a timer runs next, as systemd says (its own wording), or undefined when it does not say. */
export async function nextElapse(systemctl: string, unit: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const answer = await runTool(systemctl, ['--user', 'show', '--property=NextElapseUSecRealtime', '--value', `${unit}.timer`], env);
  const said = answer.stdout.trim();
  return answer.code === 0 && said !== '' && said !== 'n/a' ? said : undefined;
}

/** Stops and forgets a job's timer (when systemd answers) and removes both its units. */
export async function removeUnits(unit: string, systemctl: string | undefined, env: NodeJS.ProcessEnv): Promise<void> {
  if (systemctl !== undefined) await runTool(systemctl, ['--user', 'disable', '--now', `${unit}.timer`], env);
  for (const ending of ['timer', 'service']) rmSync(join(unitDir(env), `${unit}.${ending}`), { force: true });
  if (systemctl !== undefined) await runTool(systemctl, ['--user', 'daemon-reload'], env);
}
