import { realpathSync } from 'node:fs';
import { Option } from 'commander';
import { sanitizeText } from '../output/terminal/sanitize.js';
import type { Context } from '../context.js';
import { loadSqlite, requireMirror, type Database } from '../mirror/open.js';
import { acquireLock } from '../util/lock.js';
import { trustedCertificates } from '../api/ca.js';
import { closeAgents } from '../notify/http.js';
import { runNotify, type NotifyMode, type NotifyResult, type Told } from '../notify/run.js';
import { GIVE_UP_AFTER, openNotifyMirror } from '../notify/ledger.js';
import { appriseOnPath } from '../notify/send/apprise.js';
import { parseTargets, splitTargetList, type Target } from '../notify/targets.js';
import { UsageError } from '../util/errors.js';
import { flag } from './flags.js';
import { mirrorPath } from './offline.js';

/**
 * What lk notify and lk serve --notify share (apart from ./notify.ts, so that lk serve does not load lk notify's
 * command module): the targets from --to or the config, and one notify run on the mirror.
 */

export const TO_FLAG = {
  to: flag.custom<string[] | undefined>(() =>
    new Option('--to <url>', 'send here (repeatable); else the config list notify').argParser((url: string, before: string[] = []) => [
      ...before,
      url,
    ]),
  ),
};

/**
 * The run's targets, every URL checked before anything is read, synced or sent (exit 2): --to, else the config list.
 * Shared with lk serve --notify.
 */
export function notifyTargets(ctx: Context, to: readonly string[] | undefined): Target[] {
  const stored = ctx.settings.storedDefault('notify') as string | undefined;
  const raws = to && to.length > 0 ? to : splitTargetList(stored ?? '');
  if (raws.length === 0) {
    throw new UsageError(
      'lk notify has nowhere to send: no --to URL, and no notify list in the config',
      'lk notify --to ntfy://ntfy.sh/YOUR-TOPIC, or lk config set notify "URL URL".',
    );
  }
  return parseTargets(raws, appriseOnPath(ctx.env));
}

/** Tells the targets what is due in the mirror (also lk serve --notify's turn after each sync). */
export async function notifyMirror(
  ctx: Context,
  targets: readonly Target[],
  options: { db?: string | undefined; mode: NotifyMode },
): Promise<NotifyResult> {
  const path = await mirrorPath(ctx, options.db);
  loadSqlite('lk notify');
  requireMirror(path);
  // The run's CA file (--cacert, LK_CA_FILE, lk config's ca-file) is trusted by the targets' TLS too.
  const caFile = ctx.settings.caFile();
  const ca = caFile ? trustedCertificates(caFile.file) : undefined;
  // Two runs on one mirror at once (cron beside lk serve --notify) would both send what neither has recorded yet:
  // the second waits for the first, then sends only what is still due.
  // The lock is the mirror file's, whatever path names it (a symlinked --db is the same mirror), and it is refreshed
  // only as targets answer: a run stuck on one lets the next take over once it is stale.
  const lock =
    options.mode === 'dry-run'
      ? undefined
      : await acquireLock(`${realpathSync(path)}.notify.lock`, {
          heartbeat: false,
          signal: ctx.signal,
          onWait: (holder) => ctx.io.info(`lk: notify: waiting for another lk notify on this mirror${holder ? ` (pid ${holder.pid})` : ''}`),
        });
  let db: Database | undefined;
  try {
    db = openNotifyMirror(path, options.mode === 'dry-run');
    return await runNotify({
      db,
      targets,
      mode: options.mode,
      env: ctx.env,
      ca,
      now: ctx.now,
      wait: ctx.waiter(),
      signal: ctx.signal,
      timeoutMs: ctx.settings.timeoutSeconds() * 1000,
      // --no-wait: a target's 429 fails it for this run at once (what it missed goes next run).
      maxWaitMs: ctx.flags.wait === false ? 0 : ctx.settings.maxWaitSeconds() * 1000,
      debug: (line) => ctx.io.debug(sanitizeText(line)),
      progress: () => lock?.refresh(),
    });
  } finally {
    db?.close();
    lock?.release();
    await closeAgents(ctx.env);
  }
}

/**
 * A message a target refused for its own content: said each run, with how many runs it has been refused, and once
 * given up, that it is (it is not tried again; the target's other messages went on).
 */
export function givenUpLines(told: readonly Told[]): string[] {
  return told.flatMap((message) =>
    message.targets
      .filter((target) => target.refusedRuns !== undefined)
      .map(
        (target) =>
          `lk: notify: ${target.target} refused ${message.key} (${sanitizeText(target.error ?? '')}); ` +
          (target.givenUp ? `given up after ${target.refusedRuns} runs` : `tried again next run (given up after ${GIVE_UP_AFTER})`),
      ),
  );
}
