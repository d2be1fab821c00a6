import { fileIdAt } from '../mirror/mirror-file.js';
import type { MirrorReader } from '../mirror/query-process.js';

/**
 * The query processes of an lk mcp run, for the SQL an assistant writes: at most `size` at a time, whatever the number
 * of calls; calls beyond wait in arrival order. A process is kept for the next call while the mirror is the same file,
 * and ended when its call is cancelled or fails (a timeout leaves it unusable), when it has been idle a while, and all
 * of them at once by close().
 */

interface Slot {
  reader: MirrorReader;
  /** The mirror file it opened (device and inode): a new file at the path needs a new process. */
  file: string;
}

interface Waiting {
  take(slot: Slot): void;
  refuse(error: unknown): void;
}

const IDLE_MS = 30_000;

export class QueryPool {
  private readonly idle: Slot[] = [];
  private readonly busy = new Set<Slot>();
  private readonly queue: Waiting[] = [];
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly path: string,
    private readonly open: () => MirrorReader,
    private readonly size = 2,
  ) {}

  /** Runs `use` on a query process once one is free; a cancelled call (signal) ends its process at once. */
  async run<T>(use: (reader: MirrorReader) => Promise<T>, signal: AbortSignal): Promise<T> {
    const slot = await this.acquire(signal);
    let abort: (() => void) | undefined;
    const aborted = new Promise<never>((_resolve, reject) => {
      abort = () => reject(signal.reason);
      signal.addEventListener('abort', abort, { once: true });
    });
    let reusable = false;
    try {
      const result = await Promise.race([use(slot.reader), aborted]);
      reusable = true;
      return result;
    } finally {
      signal.removeEventListener('abort', abort!);
      this.release(slot, reusable && !signal.aborted);
    }
  }

  /** Ends every query process now (a running query with it) and refuses every call still waiting. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.idleTimer);
    for (const waiting of this.queue.splice(0)) waiting.refuse(new Error('lk mcp is stopping'));
    for (const slot of [...this.idle.splice(0), ...this.busy]) slot.reader.close();
    this.busy.clear();
  }

  private acquire(signal: AbortSignal): Promise<Slot> {
    if (this.closed) return Promise.reject(new Error('lk mcp is stopping'));
    signal.throwIfAborted();
    const ready = this.take();
    if (ready) return Promise.resolve(ready);
    return new Promise<Slot>((resolve, reject) => {
      const leave = () => {
        const at = this.queue.indexOf(waiting);
        if (at >= 0) this.queue.splice(at, 1);
        reject(signal.reason);
      };
      const waiting: Waiting = {
        take: (slot) => {
          signal.removeEventListener('abort', leave);
          resolve(slot);
        },
        refuse: (error) => {
          signal.removeEventListener('abort', leave);
          reject(error);
        },
      };
      signal.addEventListener('abort', leave, { once: true });
      this.queue.push(waiting);
    });
  }

  /** A free slot, marked busy: an idle process of the same mirror file, else a new one while there is room. */
  private take(): Slot | undefined {
    const file = fileOf(this.path);
    while (this.idle.length > 0) {
      const slot = this.idle.pop()!;
      if (slot.file === file) return this.markBusy(slot);
      slot.reader.close();
    }
    if (this.busy.size >= this.size) return undefined;
    // Opening throws when there is no mirror: that is the call's answer, and no slot was taken.
    return this.markBusy({ reader: this.open(), file });
  }

  private markBusy(slot: Slot): Slot {
    this.busy.add(slot);
    return slot;
  }

  private release(slot: Slot, reusable: boolean): void {
    this.busy.delete(slot);
    if (this.closed || !reusable) slot.reader.close();
    else this.idle.push(slot);
    this.serveQueue();
    this.scheduleIdleEnd();
  }

  private serveQueue(): void {
    while (this.queue.length > 0 && !this.closed) {
      let slot: Slot | undefined;
      try {
        slot = this.take();
      } catch (error) {
        this.queue.shift()!.refuse(error);
        continue;
      }
      if (!slot) return;
      this.queue.shift()!.take(slot);
    }
  }

  private scheduleIdleEnd(): void {
    clearTimeout(this.idleTimer);
    if (this.idle.length === 0) return;
    this.idleTimer = setTimeout(() => {
      for (const slot of this.idle.splice(0)) slot.reader.close();
    }, IDLE_MS);
    this.idleTimer.unref();
  }
}

/** The file at `path` as device and inode, 'missing' when there is none. */
export function fileOf(path: string): string {
  return fileIdAt(path) ?? 'missing';
}
