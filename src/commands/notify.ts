import type { Command } from 'commander';
import { SCREEN } from '../output/shape.js';
import { sanitizeText } from '../output/terminal/sanitize.js';
import { resource, type Resource } from '../output/result.js';
import type { Context } from '../context.js';
import type { NotifyMode, Told } from '../notify/run.js';
import { hideSecrets, KNOWN_HINT, type Target } from '../notify/targets.js';
import { appriseRefusal } from '../notify/send/apprise.js';
import { GIVE_UP_AFTER } from '../notify/ledger.js';
import { SilentExit, UsageError } from '../util/errors.js';
import { givenUpLines, notifyMirror, notifyTargets, TO_FLAG } from './notify-run.js';
import { addCommand, defineCommand } from './define.js';
import { flag, type OptionsOf } from './flags.js';
import { DB_FLAG } from './options.js';
import { runSync } from './sync.js';
import { mirrorOr, plus, PROFILE } from './uses.js';

const NOTIFY_FLAGS = {
  ...TO_FLAG,
  sync: flag.toggle('--sync', 'run lk sync first (needs the key), then tell what is new'),
  dryRun: flag.toggle('--dry-run', 'show what would be sent, and to which targets; send and record nothing'),
  markSent: flag.toggle('--mark-sent', 'record what is due as sent, without sending it (to start quiet)'),
  ...DB_FLAG,
};
export type NotifyFlags = OptionsOf<typeof NOTIFY_FLAGS>;

/** `lk notify`: what is new since its last run, told once to each target. */
const notifyCommand = defineCommand({
  name: 'notify',
  uses: mirrorOr('sync', plus(PROFILE, 'timeout', 'maxWait', 'wait', 'cacert', 'verbose')),
  description: 'tell your phone (ntfy, e-mail, Discord, any Apprise URL) of episodes airing and new notifications, once',
  // --fields would pick from the array as one object: jq picks per message.
  output: { ...SCREEN, fields: [], instead: { '--fields': "pick per message with --jq: lk notify --json --jq '.[] | {kind, title}'" } },
  flags: NOTIFY_FLAGS,
  help: `
Reads the mirror (--sync syncs it first) and sends each target what it has not taken yet: airing, an episode of a
followed show airing in the next 24 hours; notification, each of the service's notifications. What a target took
is recorded in the mirror the moment it answers: the next run sends nothing again, and a target that failed gets
what it missed (at least once: an interrupted run may send again only what was in flight).
Targets: --to URL (repeatable), else \`lk config set notify "URL URL"\` (kept 0600 like the key, shown masked
everywhere: ntfys://ntfy.sh/***, mailto://me:***@host?to=***). ${KNOWN_HINT} Apprise's parameters lk sends itself:
ntfy's priority=, tags=, click= (and several topics), json's method=, +Header=, -param=, :key=; any other is refused.
A target's TLS (ntfys, jsons, mailto's STARTTLS, mailtos, discord) trusts --cacert / LK_CA_FILE / ca-file too; a
mailto:// login goes only over TLS, except to loopback. Each delivery has one deadline, --timeout.
A message a target refuses for its content (too long, malformed) does not hold the others back: it is tried on
${GIVE_UP_AFTER} runs, then given up (stderr says so; --json shows refusedRuns and givenUp).
Exit 0 when every target took every message or nothing was due; 1 when a target failed (one line each on stderr).
`,
  examples: [
    'lk notify --to ntfy://ntfy.sh/my-lk-topic --dry-run',
    'lk config set notify "ntfys://ntfy.sh/my-lk-topic mailto://me:PASSWORD@gmail.com"',
    '*/30 * * * *  LK_API_KEY_FILE=$HOME/.config/lk/key /usr/local/bin/lk notify -q --sync >> $HOME/.local/state/lk-notify.log',
    'lk notify --mark-sent   # start quiet: what is due now is never sent',
  ],
  run: runNotifyCommand,
});

export function registerNotify(program: Command): void {
  addCommand(program, notifyCommand);
}

async function runNotifyCommand(ctx: Context, _out: unknown, options: NotifyFlags): Promise<Resource> {
  if (options.dryRun && options.markSent)
    throw new UsageError('--dry-run and --mark-sent: choose one', '--dry-run records nothing; --mark-sent records without sending.');
  const targets = notifyTargets(ctx, options.to);
  if (options.dryRun) await refuseWhatAppriseRefuses(ctx, targets);
  if (options.sync) await runSync(ctx, { db: options.db });
  const result = await notifyMirror(ctx, targets, { db: options.db, mode: options.dryRun ? 'dry-run' : options.markSent ? 'mark-sent' : 'send' });
  for (const { target, error } of result.failed) ctx.io.warn(`lk: notify: ${target} failed: ${sanitizeText(error)}; what it missed is sent next run`);
  for (const line of givenUpLines(result.told)) ctx.io.warn(line);
  const mode = options.dryRun ? 'dry-run' : options.markSent ? 'mark-sent' : 'send';
  return resource(async () => result.told, {
    screen: async () => screenOf(result.told, mode),
    failure: () => (result.failed.length > 0 || givenUpLines(result.told).length > 0 ? new SilentExit(1) : undefined),
  });
}

/** For a person: a line per message with the targets that took it (or would); a failed target has its line on stderr. */
function screenOf(told: readonly Told[], mode: NotifyMode): string {
  if (told.length === 0) return 'Nothing to send.\n';
  const head = { 'dry-run': 'Would send (nothing sent, nothing recorded):', 'mark-sent': 'Recorded as sent, not sent:', send: 'Sent:' }[mode];
  const lines = told.flatMap((message) => {
    const where = message.targets.filter(({ ok }) => ok !== false).map(({ target }) => target);
    // The title is the server's: one line, nothing a terminal would act on.
    return where.length === 0 ? [] : [`  ${message.kind.padEnd(12)} ${sanitizeText(message.title)} → ${where.join(', ')}`];
  });
  return lines.length === 0 ? 'Nothing sent.\n' : `${head}\n${lines.join('\n')}\n`;
}

/** --dry-run: a URL handed to apprise is shown to apprise (its own dry run): one it cannot parse is refused (exit 2). */
async function refuseWhatAppriseRefuses(ctx: Context, targets: readonly Target[]): Promise<void> {
  for (const target of targets) {
    if (target.builtIn) continue;
    const refusal = await appriseRefusal(target.raw, { env: ctx.env, timeoutMs: ctx.settings.timeoutSeconds() * 1000 });
    if (refusal !== undefined) {
      throw new UsageError(`apprise does not take ${target.masked}: ${sanitizeText(hideSecrets(refusal, target))}`, KNOWN_HINT);
    }
  }
}
