import type { Database } from '../mirror/open.js';
import type { Waiter } from '../util/sleep.js';
import { formatDuration } from '../util/units.js';
import { GIVE_UP_AFTER, Ledger } from './ledger.js';
import { messagesDue, type Message } from './messages.js';
import { hideSecrets, type BuiltInScheme, type Target } from './targets.js';
import { sendApprise } from './send/apprise.js';
import { sendDiscord } from './send/discord.js';
import { sendJson } from './send/json.js';
import { sendMail } from './send/mailto.js';
import { sendNtfy } from './send/ntfy.js';
import type { Outcome, SendOptions, Sender } from './send/outcome.js';

/**
 * One run of lk notify: the messages due (messages.ts), each target given the ones it has not taken (ledger.ts), one
 * after another, each recorded the moment the target took it. A target that fails is not tried again in this run; it
 * gets what it missed next run, and the others are not sent it again. The targets are sent to side by side.
 */

const SENDERS: Record<BuiltInScheme, Sender> = {
  ntfy: sendNtfy,
  ntfys: sendNtfy,
  json: sendJson,
  jsons: sendJson,
  mailto: sendMail,
  mailtos: sendMail,
  discord: sendDiscord,
};

/** `send` sends and records; `dry-run` does neither; `mark-sent` records what is due without sending it. */
export type NotifyMode = 'send' | 'dry-run' | 'mark-sent';

export interface NotifyOptions extends SendOptions {
  db: Database;
  targets: readonly Target[];
  mode: NotifyMode;
  wait: Waiter;
  /** The longest Retry-After waited out (--max-wait); a longer one fails the target for this run. */
  maxWaitMs: number;
  /** -v: a line per message sent, the target masked. */
  debug?: ((line: string) => void) | undefined;
  /** Called each time a target answers or a wait ends: the run is making progress (its lock is refreshed). */
  progress?: (() => void) | undefined;
}

/**
 * What became of one message at one target (`ok` null: a dry run, nothing sent). A message the target refused for
 * its own content also says for how many runs (`refusedRuns`) and whether it is now given up (`givenUp`).
 */
export interface Delivery {
  target: string;
  ok: boolean | null;
  error: string | null;
  refusedRuns?: number;
  givenUp?: boolean;
}

/** A message due for at least one target, and what each of them did with it (lk notify --json prints these). */
export interface Told extends Message {
  targets: Delivery[];
}

export interface NotifyResult {
  told: Told[];
  /** One per target that failed: its masked URL and why. */
  failed: Array<{ target: string; error: string }>;
}

/**
 * A target takes this many messages in a row, then one every PACE_MS: no burst a service would rate-limit (Discord's
 * webhooks take 5 in 2 seconds; ntfy a burst of 60, then one every 5 seconds, past which its 429 is waited out).
 */
const BURST = 5;
const PACE_MS = 500;
/** A 429 is waited out this many times for one message, then the target has failed for this run. */
const RETRIES = 3;
/** The wait after a 429 that names none. */
const DEFAULT_RETRY_MS = 5000;
/** The least wait after a 429, doubled at each: a Retry-After of 0 (or a few ms) still backs off. */
const LEAST_RETRY_MS = 1000;

export async function runNotify(options: NotifyOptions): Promise<NotifyResult> {
  const ledger = new Ledger(options.db, options.mode !== 'dry-run');
  const messages = messagesDue(options.db, options.now());
  const told = new Map<string, Told>();
  const queues = options.targets.map((target) => {
    const due = messages.filter((message) => !ledger.done([target.id, ...target.formerIds], message.key));
    const deliveries = due.map((message) => {
      const entry = told.get(message.key) ?? { ...message, targets: [] };
      told.set(message.key, entry);
      const delivery: Delivery = { target: target.masked, ok: null, error: null };
      entry.targets.push(delivery);
      return { message, delivery };
    });
    return { target, deliveries };
  });
  const failures: Array<NotifyResult['failed'][number] | undefined> = [];
  if (options.mode === 'mark-sent') {
    for (const { target, deliveries } of queues) {
      for (const { message, delivery } of deliveries) {
        ledger.record(target.id, message.key, options.now());
        delivery.ok = true;
      }
    }
  } else if (options.mode === 'send') {
    await Promise.all(
      queues.map(async ({ target, deliveries }, at) => {
        const error = await sendAll(target, deliveries, ledger, options);
        if (error !== undefined) failures[at] = { target: target.masked, error };
      }),
    );
  }
  // In the order of the messages and of the targets, whichever answered first.
  const order = new Map(messages.map((message, at) => [message.key, at]));
  const inOrder = [...told.values()].sort((a, b) => order.get(a.key)! - order.get(b.key)!);
  return { told: inOrder, failed: failures.filter((failure) => failure !== undefined) };
}

/** The target's messages in order, each recorded once taken; the first failure ends its turn. Returns that failure. */
async function sendAll(
  target: Target,
  deliveries: Array<{ message: Message; delivery: Delivery }>,
  ledger: Ledger,
  options: NotifyOptions,
): Promise<string | undefined> {
  let failure: string | undefined;
  for (const [at, { message, delivery }] of deliveries.entries()) {
    if (failure !== undefined) {
      delivery.ok = false;
      delivery.error = 'not sent: the target failed earlier in this run (sent next run)';
      continue;
    }
    if (at >= BURST) await options.wait(PACE_MS, `pacing the messages to ${target.masked}`, options.signal);
    const outcome = await sendOne(target, message, options);
    options.progress?.();
    if (outcome.ok) {
      ledger.record(target.id, message.key, options.now());
      delivery.ok = true;
      options.debug?.(`lk: notify: ${target.masked} took ${message.key}`);
    } else if (outcome.content) {
      // Refused for its own content: the next message goes on; this one is tried in GIVE_UP_AFTER runs at most.
      const runs = ledger.refused(target.id, message.key, outcome.error, options.now());
      delivery.ok = false;
      delivery.error = outcome.error;
      delivery.refusedRuns = runs;
      delivery.givenUp = runs >= GIVE_UP_AFTER;
    } else {
      failure = outcome.error;
      delivery.ok = false;
      delivery.error = outcome.error;
    }
  }
  return failure;
}

/** One message to one target, a 429's Retry-After waited out (up to --max-wait, RETRIES times). */
async function sendOne(target: Target, message: Message, options: NotifyOptions): Promise<Outcome> {
  const sender = target.builtIn ? SENDERS[target.builtIn] : sendApprise;
  for (let attempt = 0; ; attempt++) {
    let outcome: Outcome;
    try {
      outcome = await sender(target, message, options);
    } catch (error) {
      options.signal?.throwIfAborted();
      outcome = { ok: false, error: errorText(error) };
    }
    if (outcome.ok) return outcome;
    const error = hideSecrets(outcome.error, target);
    const asked = outcome.retryAfterMs;
    if (asked === undefined && !/^HTTP 429/.test(outcome.error)) return { ...outcome, error };
    const waitMs = Math.max(asked ?? DEFAULT_RETRY_MS, LEAST_RETRY_MS * 2 ** attempt);
    if (attempt >= RETRIES) return { ok: false, error: `${error} (still after ${RETRIES} waits)` };
    if (waitMs > options.maxWaitMs) {
      return { ok: false, error: `${error}: asked to wait ${formatDuration(waitMs / 1000)}, more than --max-wait (or --no-wait)` };
    }
    await options.wait(waitMs, `${target.masked} asked to wait (429)`, options.signal);
    options.progress?.();
  }
}

/** A network error's words, with its cause (undici's "fetch failed" says nothing alone). */
function errorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
  const said = cause && !message.includes(cause.message) ? `${message}: ${cause.message}` : message;
  const code = String(
    (cause as NodeJS.ErrnoException | undefined)?.code ?? (error instanceof Error ? (error as NodeJS.ErrnoException).code : '') ?? '',
  );
  return CERTIFICATE_CODES.test(code) || /self[- ]signed certificate|unable to (verify|get (local )?issuer)/i.test(said)
    ? certificateText(said)
    : said;
}

const CERTIFICATE_CODES =
  /^(UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|CERT_UNTRUSTED)$/;

/** A certificate nobody vouches for: lk's way to trust it (--cacert, LK_CA_FILE) in place of Node's hints. */
function certificateText(said: string): string {
  const words = said
    .split(/(?<=[.;])\s+|\s+\(/)
    .filter((part) => !/use-system-ca|NODE_EXTRA_CA_CERTS|--use-openssl-ca/.test(part))
    .join(' ')
    .replace(/[.;\s]+$/, '');
  return `${words}: if the target has its own certificate authority, trust it with --cacert FILE (or LK_CA_FILE)`;
}
