import type { Command } from 'commander';
import type { Context } from '../context.js';
import { SCREEN, TEXT } from '../output/shape.js';
import { resource, type Resource } from '../output/result.js';
import { addedScreen, addJob, type Added } from '../schedule/add.js';
import { parseInterval } from '../schedule/interval.js';
import { JOB_NAMES, JOBS, isJobName, type JobName } from '../schedule/jobs.js';
import { listJobs, listScreen } from '../schedule/list.js';
import { ownCommand } from '../schedule/own-command.js';
import { backupDir, checkProfileName, planJob } from '../schedule/plan.js';
import { removeJob } from '../schedule/remove.js';
import { requireSqliteNode } from '../mirror/open.js';
import { ExitCode, LkError, UsageError } from '../util/errors.js';
import { addCommand, defineCommand, operand } from './define.js';
import { flag } from './flags.js';
import { examples, fittedHelp, showDefaultSubcommandOptions } from './help-layout.js';
import { plus, PROFILE } from './uses.js';

const JOB = operand('<job>', 'sync, backup or notify', { shownChoices: JOB_NAMES, complete: { choices: JOB_NAMES } });

/** The job named on the line, checked before anything is touched (exit 2). */
function jobName(name: string): JobName {
  const lower = name.toLowerCase();
  if (!isJobName(lower)) throw new UsageError(`no job "${name}": lk schedule knows ${JOB_NAMES.join(', ')}`);
  return lower;
}

const ADD_FLAGS = {
  every: flag.text('--every <duration>', 'how often: 15m, 20m, 30m, 1h, 2h, 3h, 4h, 6h, 8h, 12h or 1d (default: sync 1h, backup 1d, notify 30m)'),
  dir: flag.text('--dir <dir>', "backup's git repository (lk export --git DIR), made absolute now"),
  print: flag.toggle('--print', 'show what would be installed (the units, or the crontab line); install nothing'),
};

const addJobCommand = defineCommand({
  name: 'add',
  // --base-url: a job of an instance that is not the profile's runs with LK_BASE_URL set to it.
  uses: plus(PROFILE, 'baseUrl'),
  description: 'install a job run unattended for this profile: a systemd user timer, else a crontab line',
  output: SCREEN,
  operands: [JOB],
  flags: ADD_FLAGS,
  help: `
Jobs: sync (${JOBS.sync.description}), backup (${JOBS.backup.description}), notify (${JOBS.notify.description}).
Where \`systemctl --user\` answers, a systemd user timer: ~/.config/systemd/user/lk-NAME.service and .timer
($XDG_CONFIG_HOME/systemd/user), Persistent=true (a run missed while asleep happens on waking), a randomised delay
fixed per machine, output in the journal (journalctl --user -u lk-NAME). Else one crontab line, at a random minute,
under \`flock -n\` (a run still going makes the next one skip), marked \`# lk schedule NAME\`. The default profile's
job is lk-NAME; another profile's lk-PROFILE-NAME (each profile may have its own sync). Adding a job again replaces it.
The key is never written into a job: its lk reads the key where lk keeps it (the keyring, or the 0600 config file),
or the file LK_API_KEY_FILE names (the job names that file). A key only in LK_API_KEY is refused (exit 3).
--every is at least 1h for backup (the API gives one export an hour) and 15m for sync and notify (each sync spends
requests from the account's 60 a minute). With neither systemd nor crontab: the line to add by hand, exit 1.
`,
  examples: ['lk schedule add sync --every 1h', 'lk schedule add backup --every 1d --dir ~/lk-backup', 'lk schedule add notify --every 30m --print'],
  async run(ctx, _out, options, [name]) {
    const job = jobName(name);
    const every = parseInterval(options.every ?? JOBS[job].defaultEvery, job);
    const dir = backupDir(job, options.dir, process.cwd());
    const profile = ctx.settings.profileName;
    checkProfileName(profile);
    // The job runs lk with this very Node: a sync from one without node:sqlite would fail every time, unseen.
    if (JOBS[job].needsMirror) requireSqliteNode(`lk schedule add ${job} (its job runs lk ${job} with this Node)`);
    const instance = ctx.instance();
    const key = ctx.settings.key();
    const plan = planJob({
      job,
      profile,
      every,
      dir,
      lk: ownCommand(),
      env: ctx.env,
      cwd: process.cwd(),
      key: { source: key.source, profileKeepsKey: Boolean(ctx.settings.profile?.key || ctx.settings.profile?.keyring) },
      baseUrl: instance.baseUrlSource === 'flag' || instance.baseUrlSource === 'LK_BASE_URL' ? instance.baseUrl : undefined,
    });
    return addedResource(await addJob(plan, ctx.env, Boolean(options.print)), Boolean(options.print));
  },
});

function addedResource(added: Added, print: boolean): Resource {
  return resource(async () => added, {
    screen: async () => addedScreen(added),
    failure: () =>
      added.scheduler === 'none' && !print
        ? new LkError(
            'neither systemd (systemctl --user does not answer) nor crontab is on this machine: nothing was installed',
            ExitCode.failure,
            'Add the line above to whatever runs jobs here.',
          )
        : undefined,
  });
}

const listJobsCommand = defineCommand({
  name: 'list',
  uses: PROFILE,
  description: "lk's jobs, every profile's: each with its schedule, next run and last result",
  output: SCREEN,
  examples: ['lk schedule list', "lk schedule list --json | jq -r '.[] | select(.last.exitCode != 0) | .job'"],
  async run(ctx: Context) {
    const jobs = await listJobs(ctx.env, ctx.now());
    return resource(async () => jobs, { screen: async () => listScreen(jobs, ctx.now()) });
  },
});

const removeJobCommand = defineCommand({
  name: 'remove',
  uses: PROFILE,
  description: "remove this profile's job: exactly what lk schedule add installed (its units, or its crontab line)",
  output: TEXT,
  operands: [JOB],
  examples: ['lk schedule remove sync', 'lk schedule remove backup --profile work'],
  async run(ctx, _out, _options, [name]) {
    const job = jobName(name);
    const profile = ctx.settings.profileName;
    const removed = await removeJob(job, profile, ctx.env);
    if (removed.length === 0) throw new UsageError(`profile ${profile} has no ${job} job (lk schedule list shows them)`);
    ctx.io.info(`removed the ${job} job of profile ${profile}: ${removed.join(', ')}`);
  },
});

export function registerSchedule(program: Command): void {
  const schedule = program
    .command('schedule')
    .description('run lk sync, a backup or lk notify unattended: a systemd user timer, else a crontab line')
    .addHelpText(
      'after',
      fittedHelp(`
Installs, lists (the default) and removes lk's unattended jobs for a profile. \`lk schedule add NAME --print\` shows what it would
install and installs nothing.
${examples('lk schedule add backup --every 1d --dir ~/lk-backup', 'lk schedule', 'lk schedule remove backup')}`),
    );
  addCommand(schedule, addJobCommand);
  showDefaultSubcommandOptions(schedule, addCommand(schedule, listJobsCommand, { isDefault: true }));
  addCommand(schedule, removeJobCommand);
}
