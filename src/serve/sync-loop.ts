import { formatDuration } from '../util/units.js';

/**
 * `--sync-every`: one sync after another, each starting `everyMs` after the last one ended, so two never overlap.
 * The sync itself is `lk sync`'s (src/mirror/sync.ts): one transaction, and the export only when the hour allows
 * (src/export/obtain.ts), the paginated endpoints in between. A failed sync is said once, on one line, and tried
 * again at the next turn; the documents keep coming from the mirror as it was.
 */
export interface SyncLoopOptions {
  everyMs: number;
  sync(): Promise<void>;
  log(line: string): void;
}

export interface SyncLoop {
  stop(): void;
}

export function startSyncLoop(options: SyncLoopOptions): SyncLoop {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const turn = async () => {
    try {
      await options.sync();
    } catch (error) {
      if (stopped) return;
      const message = error instanceof Error ? error.message : String(error);
      options.log(`lk: serve: sync failed (${message}); still serving the mirror as it was; next try in ${formatDuration(options.everyMs / 1000)}`);
    }
    if (!stopped) timer = setTimeout(() => void turn(), options.everyMs);
  };
  timer = setTimeout(() => void turn(), options.everyMs);
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
