/** Pauses for the rate limit or a retry; the context supplies one that shows a countdown. Rejects when `signal` aborts. */
export type Waiter = (ms: number, reason: string, signal?: AbortSignal) => Promise<void>;

/** The longest delay setTimeout takes (2^31-1 ms); a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The plain Waiter: a timer that an abort cancels (a wait longer than a timer allows is taken in steps). */
export function sleep(ms: number, _reason?: string, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    let left = Number.isFinite(ms) ? Math.max(0, ms) : MAX_TIMER_MS;
    let timer: NodeJS.Timeout;
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const step = () => {
      const now = Math.min(left, MAX_TIMER_MS);
      left -= now;
      timer = setTimeout(() => {
        if (left > 0) return step();
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, now);
    };
    step();
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
