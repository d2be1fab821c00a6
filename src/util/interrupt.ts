/**
 * Ctrl-C must leave no half-written file: whoever creates a temporary file registers its removal here, and the
 * SIGINT handler runs every pending cleanup before exiting with 130.
 */
const cleanups = new Set<() => void>();

export function onInterrupt(cleanup: () => void): () => void {
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

export function runInterruptCleanups(): void {
  for (const cleanup of cleanups) {
    try {
      cleanup();
    } catch {
      // best effort: we are exiting anyway
    }
  }
  cleanups.clear();
}

/**
 * A run that ends cleanly on a signal (lk serve: SIGTERM from systemd or docker stop, Ctrl-C) says so here: the
 * signal then aborts the run's signal and the run returns, exiting 0, instead of exiting with 128 + the signal.
 */
let stopsOnSignal = false;

export function endCleanlyOnSignal(): () => void {
  stopsOnSignal = true;
  return () => {
    stopsOnSignal = false;
  };
}

export function endsCleanlyOnSignal(): boolean {
  return stopsOnSignal;
}
