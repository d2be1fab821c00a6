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
