import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, utimesSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { LkError } from './errors.js';
import { onInterrupt } from './interrupt.js';
import { processIsAlive, temporaryName } from './atomic-file.js';

/**
 * A lock file shared by every `lk` process on this machine (and on others sharing the cache folder): created with
 * exclusive create, holding who took it. A lock whose holder died, or that nobody has refreshed for `staleMs`, is
 * taken over, so that a crashed run never blocks the next cron run for ever.
 */

export interface LockHolder {
  pid: number;
  host: string;
  since: string;
  token: string;
}

export interface LockOptions {
  /** A lock not refreshed for this long is stale (the holder refreshes it every staleMs / 4 while it lives). */
  staleMs?: number;
  pollMs?: number;
  /** Called once when the lock is taken and this process starts waiting. */
  onWait?: (holder: LockHolder | undefined) => void;
  /** Waiting for a live holder longer than this throws what `gaveUp` makes (default: wait as long as it lives). */
  waitMs?: number;
  gaveUp?: (holder: LockHolder | undefined) => Error;
  signal?: AbortSignal | undefined;
  /**
   * false: no timer refreshes the lock; the holder calls refresh() each time it makes progress, so a holder stuck
   * (on a target that never answers) lets its lock go stale instead of holding every later run back.
   */
  heartbeat?: boolean;
}

export interface Lock {
  /** Shows the other processes that the holder is still at work. */
  refresh(): void;
  release(): void;
}

export const DEFAULT_STALE_MS = 10 * 60 * 1000;

export async function acquireLock(path: string, options: LockOptions = {}): Promise<Lock> {
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const giveUpAt = options.waitMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + options.waitMs;
  let announced = false;
  for (;;) {
    const lock = tryCreate(path, staleMs, options.heartbeat ?? true);
    if (lock) return lock;
    const content = readLock(path);
    if (content === undefined) continue; // released between our two looks: try again at once
    if (isStale(content, staleMs)) {
      breakLock(path, content.text);
      continue;
    }
    if (!announced) {
      announced = true;
      options.onWait?.(content.holder);
    }
    if (options.signal?.aborted) throw new LkError('interrupted');
    if (Date.now() >= giveUpAt) throw options.gaveUp?.(content.holder) ?? new LkError(`${path} is held by another process`);
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 100));
  }
}

function tryCreate(path: string, staleMs: number, heartbeat: boolean): Lock | undefined {
  const holder: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString(), token: randomBytes(8).toString('hex') };
  const text = `${JSON.stringify(holder)}\n`;
  if (!createWithContent(path, text)) return undefined;
  // Its age is judged (isStale) on this clock, not the file system's: stamped with it from the start.
  touch(path);
  const release = (): void => {
    clearInterval(timer);
    forget();
    if (readLock(path)?.text === text) unlinkQuietly(path);
  };
  // Refreshing the time shows other processes that a long wait (the export hour) is not a crash.
  const timer = heartbeat ? setInterval(() => touch(path), Math.max(1000, staleMs / 4)) : undefined;
  timer?.unref();
  const forget = onInterrupt(release);
  return { release, refresh: () => touch(path) };
}

/**
 * Creates the lock with its content in one step: written to a temporary file, then linked to the lock's name (link
 * fails if the name exists). A lock file is therefore never seen empty while it lives, and a failed write (a full
 * disk) leaves no lock behind. Returns false when the lock is taken.
 */
function createWithContent(path: string, text: string): boolean {
  const temp = temporaryName(path);
  try {
    const tempFd = openSync(temp, 'wx', 0o600);
    try {
      writeSync(tempFd, text);
    } finally {
      closeSync(tempFd);
    }
    try {
      linkSync(temp, path);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return false;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw error;
    }
    // A file system without hard links: exclusive create, then the content (empty for an instant).
    let fd: number;
    try {
      fd = openSync(path, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
    try {
      writeSync(fd, text);
    } catch (error) {
      closeSync(fd);
      unlinkQuietly(path);
      throw error;
    }
    closeSync(fd);
    return true;
  } finally {
    unlinkQuietly(temp);
  }
}

function readLock(path: string): { text: string; holder: LockHolder | undefined; mtimeMs: number } | undefined {
  try {
    const mtimeMs = statSync(path).mtimeMs;
    const text = readFileSync(path, 'utf8');
    return { text, holder: parseHolder(text), mtimeMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    return typeof value.pid === 'number' && typeof value.token === 'string' ? (value as LockHolder) : undefined;
  } catch {
    return undefined;
  }
}

function isStale(content: { holder: LockHolder | undefined; mtimeMs: number }, staleMs: number): boolean {
  const age = Date.now() - content.mtimeMs;
  if (age > staleMs) return true;
  const { holder } = content;
  // Locks are created whole (createWithContent): an empty or unreadable one is debris from a crash or a full disk.
  if (!holder) return true;
  return holder.host === hostname() && !processIsAlive(holder.pid);
}

/**
 * Moves the stale lock aside (only one process can win that rename) and deletes it; if what was moved is not the
 * lock judged stale (another process took over in between), it is put back.
 */
function breakLock(path: string, staleText: string): void {
  const aside = temporaryName(path);
  try {
    renameSync(path, aside);
  } catch {
    return; // someone else broke it first
  }
  let movedText: string | undefined;
  try {
    movedText = readFileSync(aside, 'utf8');
  } catch {
    movedText = undefined;
  }
  if (movedText !== staleText) {
    try {
      linkSync(aside, path);
    } catch {
      // the path is taken again: that holder goes on, and the one we moved re-checks on release
    }
  }
  unlinkQuietly(aside);
}

function touch(path: string): void {
  const now = new Date();
  try {
    utimesSync(path, now, now);
  } catch {
    // gone or taken over: nothing to refresh
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
