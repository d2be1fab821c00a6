import { RateLimitError } from '../util/errors.js';
import type { Waiter } from '../util/sleep.js';
import { formatDuration } from '../util/units.js';

/**
 * `--sync-every`: a sync at start, then one after another, each starting a while after the last one ended, so two
 * never overlap.
 * The sync itself is `lk sync`'s (src/mirror/sync.ts): one transaction, and the export only when the hour allows
 * (src/export/obtain.ts, which remembers a refusal until its Retry-After), the paginated endpoints in between. A
 * failed sync is said once, on one line, and tried again at the next turn; the documents keep coming from the mirror
 * as it was.
 *
 * The account's per-minute budget is shared by every client of the account, so the turns are never closer than
 * syncFloorMs: a sync's requests (the last one's count) spread over the minutes that keep them within
 * BUDGET_SHARE of the budget the server reports. A shorter --sync-every is raised to that, said on stderr (once,
 * and again only if the floor grows by half). A
 * 429 that asks for a wait (Retry-After) is honoured: no turn starts before it has passed.
 */

/** What a sync cost: its requests, and the account's requests a minute as the server last reported them. */
export interface SyncCost {
  requests: number;
  perMinute: number | undefined;
}

/** The share of the account's per-minute budget the syncs of lk serve may use, on average: half. */
export const BUDGET_SHARE = 0.5;

/** The shortest time between two syncs costing `cost` each, in whole seconds (0 when the budget is unknown). */
export function syncFloorMs(cost: SyncCost): number {
  if (cost.perMinute === undefined || cost.perMinute <= 0) return 0;
  const minutes = cost.requests / (cost.perMinute * BUDGET_SHARE);
  return Math.ceil(minutes * 60) * 1000;
}

export interface SyncLoopOptions {
  everyMs: number;
  sync(): Promise<SyncCost>;
  /** The cost of a sync made just before the loop starts (lk serve's first, for a missing mirror): the next in everyMs. */
  first?: SyncCost | undefined;
  /**
   * Else the mirror's last recorded sync: its cost paces the turns, and the first turn comes at once — a restart
   * (systemd's Restart=, a reboot) is not an interval without a sync — unless that sync ended less than the floor ago.
   */
  last?: { cost: SyncCost; finishedAt: number | undefined } | undefined;
  now(): number;
  /** How the wait between two turns passes: the run's own waiter (a timer, or a test's virtual clock); stop() aborts it. */
  sleep: Waiter;
  log(line: string): void;
}

export interface SyncLoop {
  stop(): void;
}

export function startSyncLoop(options: SyncLoopOptions): SyncLoop {
  const stopping = new AbortController();
  let floorMs = 0;
  let saidMs = options.everyMs;
  /** The wait before the next turn, from the last sync's cost when there is one. */
  const interval = (cost: SyncCost | undefined): number => {
    if (cost) floorMs = syncFloorMs(cost);
    // Said once when first raised, again only if the floor grows by half (a first sync from the export costs a few
    // requests, the next ones from the pages more): not a line per turn for a floor that moves by a second.
    if (cost && floorMs > options.everyMs && floorMs >= saidMs * (saidMs === options.everyMs ? 1 : 1.5)) {
      saidMs = floorMs;
      options.log(
        `lk: serve: --sync-every ${formatDuration(options.everyMs / 1000)} raised to ${formatDuration(floorMs / 1000)}: ` +
          `a sync takes ${cost.requests} requests and the account allows ${cost.perMinute} a minute, shared by its clients; lk serve keeps to half of it`,
      );
    }
    return Math.max(options.everyMs, floorMs);
  };
  /** One sync; the wait before the next. */
  const turn = async (): Promise<number> => {
    try {
      return interval(await options.sync());
    } catch (error) {
      let wait = interval(undefined);
      if (stopping.signal.aborted) return wait;
      // A 429 that asks for a wait beyond what lk would wait inside a sync: the next turn starts after it.
      if (error instanceof RateLimitError) wait = Math.max(wait, error.resetAt.getTime() - options.now());
      const message = error instanceof Error ? error.message : String(error);
      options.log(`lk: serve: sync failed (${message}); still serving the mirror as it was; next try in ${formatDuration(Math.ceil(wait / 1000))}`);
      return wait;
    }
  };
  let firstWait: number;
  if (options.first) firstWait = interval(options.first);
  else {
    const { last } = options;
    if (last) interval(last.cost); // the floor from the last sync's cost, said at once when it raises --sync-every
    const since = last?.finishedAt === undefined ? Number.POSITIVE_INFINITY : Math.max(0, options.now() - last.finishedAt);
    firstWait = Math.max(0, floorMs - since);
  }
  void (async () => {
    try {
      for (let wait = firstWait; ; wait = await turn()) await options.sleep(wait, 'the next sync', stopping.signal);
    } catch (error) {
      // The wait stop() ended; anything else is a defect, not to be swallowed.
      if (!stopping.signal.aborted) throw error;
    }
  })();
  return {
    stop() {
      stopping.abort();
    },
  };
}
