/** The exchange's deadline (--timeout): passed at once by a stalled request, renewed by a body that keeps coming. */
/**
 * --timeout bounds the whole exchange, not only the wait for headers: the time runs from the request, and it is
 * renewed only while the body keeps arriving at a useful pace (MIN_PROGRESS_BYTES per period). A body trickling a
 * byte a second ends in a timeout; a large export arriving steadily does not.
 */
export class Deadline {
  expired = false;
  /** Settles with EXPIRED when the deadline passes (and never otherwise). */
  readonly expiry: Promise<typeof EXPIRED>;
  private onExpiry: (value: typeof EXPIRED) => void = () => {};
  private received = 0;
  private timer: NodeJS.Timeout;

  constructor(
    private readonly ms: number,
    private readonly aborter: AbortController,
  ) {
    this.expiry = new Promise((resolve) => (this.onExpiry = resolve));
    this.timer = setTimeout(() => this.check(), ms);
  }

  progress(bytes: number): void {
    this.received += bytes;
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  private check(): void {
    if (this.received >= MIN_PROGRESS_BYTES) {
      this.received = 0;
      this.timer = setTimeout(() => this.check(), this.ms);
      return;
    }
    this.expired = true;
    this.onExpiry(EXPIRED);
    this.aborter.abort();
  }
}

export const EXPIRED = Symbol('deadline passed');

const MIN_PROGRESS_BYTES = 64 * 1024;
