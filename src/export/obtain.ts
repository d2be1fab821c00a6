import { accountName, fetchMe } from '../api/account.js';
import type { ApiClient, ApiReader, Waiter } from '../api/client.js';
import { pathOf } from '../api/endpoints.js';
import { formatDuration, formatMoment } from '../util/units.js';
import { LkError, RateLimitError, TransportError } from '../util/errors.js';
import type { IoStreams } from '../output/terminal/io.js';
import type { ExportCache, CachedExport } from './cache.js';
import { acquireLock, type Lock } from '../util/lock.js';

/** "no space left on device" from "ENOSPC: no space left on device, open '…'". */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return /^[A-Z]+: ([^,]+)/.exec(message)?.[1] ?? message;
}

/**
 * Where an export comes from: the cache while the server's hour is not over, else the server (once between all
 * the processes running at the same moment, thanks to the lock), else the cache again when the server refuses and
 * the user accepts an older one. A refusal (429) is remembered in the cache until its Retry-After has passed, so
 * no lk asks again before then. Every body fetched is checked to be a JSON object before anything is written.
 */

/**
 * docs/api.md: one export per hour per account. A self-hosted instance may allow more: the cache answers within the
 * hour, but --fresh asks the server, whose 429 and Retry-After decide.
 */
export const EXPORT_INTERVAL_MS = 60 * 60 * 1000;
const MAX_EXPORT_WAITS = 3;

export interface ExportPolicy {
  /** --fresh: never the cache; asks the server, and exits 5 when it refuses (or refused, until its Retry-After). */
  fresh: boolean;
  /** --max-age: the oldest cache accepted (served within the hour, or as a fallback on 429). Default: the hour. */
  maxAgeMs: number | undefined;
  /** --max-wait as the user passed it (undefined: not passed, or --no-wait): a 429 within it is waited out. */
  maxWaitSeconds: number | undefined;
}

export interface ExportSourceContext {
  client: ApiReader;
  /** None: the cache folder cannot be used (untrusted, full, not writable); the export is fetched without it. */
  cache: ExportCache | undefined;
  account: string;
  io: IoStreams;
  now: () => number;
  wait: Waiter;
  signal?: AbortSignal | undefined;
  onProgress?: (received: number, total: number | undefined) => void;
  /** Called once the request has ended, successfully or not (to stop a spinner before any message). */
  onSettled?: () => void;
}

export interface ObtainedExport {
  /** The body exactly as the server sent it. */
  text: string;
  json: Record<string, unknown>;
  fetchedAt: number;
  /** Answered from the cache rather than the server (the mirror's sync_runs records which). */
  fromCache: boolean;
}

export async function obtainExport(source: ExportSourceContext, policy: ExportPolicy): Promise<ObtainedExport> {
  const { cache, account, io } = source;
  let lock: Lock;
  try {
    if (!cache) throw new Error('no cache');
    await cache.prepare(account);
    lock = await acquireLock(cache.lockPath(account), {
      signal: source.signal,
      onWait: (holder) => io.info(`lk: another lk export${holder ? ` (pid ${holder.pid})` : ''} is fetching for ${account}; waiting for it…`),
    });
  } catch (error) {
    if (error instanceof LkError && error.message === 'interrupted') throw error;
    // A full disk or an unwritable cache folder must not cost the backup the user asked for: fetch without it.
    if (cache) io.warn(`lk: warning: cannot use the export cache (${reasonOf(error)}); fetching without it`);
    return fetchAndCache({ ...source, cache: undefined });
  }
  try {
    const cached = await readUsableCache(source);
    const now = source.now();
    const maxAgeMs = policy.maxAgeMs ?? EXPORT_INTERVAL_MS;
    if (cached && !policy.fresh) {
      const age = now - cached.fetchedAt;
      if (age < EXPORT_INTERVAL_MS && age <= maxAgeMs) {
        io.info(
          `lk: export from the cache, fetched ${ago(age)}; a fresh export is possible after ${moment(cached.fetchedAt + EXPORT_INTERVAL_MS, now)}`,
        );
        return fromCache(cached);
      }
    }
    // --fresh asks the server even within the hour: the hour is the rule lk assumes, the server's 429 is its word (an
    // instance, the sandbox's --export-interval, may allow more). Refused, the refusal is remembered until its
    // Retry-After (below), so a second --fresh asks nothing: one request at most, whatever the server allows.
    for (let waits = 0; ; waits += 1) {
      try {
        // A refusal remembered from an earlier run (or another lk) stands until its Retry-After: no request before.
        const refusedUntil = await cache.refusedUntil(account, source.now());
        if (refusedUntil !== undefined) throw new RateLimitError('the server refused a new export', new Date(refusedUntil));
        try {
          return await fetchAndCache(source);
        } catch (error) {
          if (error instanceof RateLimitError) await cache.rememberRefusal(account, error.resetAt.getTime());
          throw error;
        }
      } catch (error) {
        if (!(error instanceof RateLimitError)) throw error;
        const seconds = Math.max(1, Math.ceil((error.resetAt.getTime() - source.now()) / 1000));
        if (policy.maxWaitSeconds !== undefined && seconds <= policy.maxWaitSeconds && waits < MAX_EXPORT_WAITS) {
          await source.wait(seconds * 1000, 'until the server allows a new export', source.signal);
          continue;
        }
        const age = cached ? source.now() - cached.fetchedAt : undefined;
        if (cached && !policy.fresh && age !== undefined && age <= maxAgeMs) {
          io.info(
            `lk: the server refused a new export until ${moment(error.resetAt.getTime(), source.now())}; using the cached export fetched ${ago(age)} (within --max-age)`,
          );
          return fromCache(cached);
        }
        throw exportRefused(error.resetAt, source.now(), age);
      }
    }
  } finally {
    lock.release();
  }
}

async function readUsableCache(source: ExportSourceContext): Promise<CachedExport | undefined> {
  if (!source.cache) return undefined;
  const lookup = await source.cache.read(source.account);
  if (lookup.state === 'damaged') source.io.info(`lk: ignoring the cached export: ${lookup.reason}`);
  if (lookup.state !== 'ok') return undefined;
  return parseExport(lookup.entry.text) ? lookup.entry : undefined;
}

async function fetchAndCache(source: ExportSourceContext): Promise<ObtainedExport> {
  let text: string;
  try {
    const response = await source.client.get(pathOf('export'), {}, { waitOnlyForBudget: true, onProgress: source.onProgress });
    text = response.text;
  } finally {
    source.onSettled?.();
  }
  const json = parseExport(text);
  if (!json)
    throw new TransportError(
      'the export from the server is not a JSON object; nothing was written',
      false,
      'Is the base URL the API and not the web app?',
    );
  const fetchedAt = source.now();
  if (!source.cache) return { text, json, fetchedAt, fromCache: false };
  try {
    await source.cache.write(source.account, text, fetchedAt);
  } catch (error) {
    // The hour is spent either way: still hand the export over, and say why the next run will not find it.
    source.io.warn(`lk: warning: could not cache the export: ${(error as Error).message}`);
  }
  return { text, json, fetchedAt, fromCache: false };
}

/** The export is a JSON object (docs/api.md fixes nothing more); an HTML page or a body cut short is not one. */
export function parseExport(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function fromCache(entry: CachedExport): ObtainedExport {
  return { text: entry.text, json: parseExport(entry.text)!, fetchedAt: entry.fetchedAt, fromCache: true };
}

function exportRefused(resetAt: Date, now: number, cacheAge: number | undefined): RateLimitError {
  const seconds = Math.max(1, Math.ceil((resetAt.getTime() - now) / 1000));
  const fallback =
    cacheAge === undefined
      ? ''
      : `, or accept the cached export (${formatDuration(cacheAge / 1000)} old) with --max-age ${Math.ceil(cacheAge / 86_400_000)}d`;
  return new RateLimitError(
    `the server refused a new export (api.rate_limited); try again after ${moment(resetAt.getTime(), now)}`,
    resetAt,
    `Wait for it with --max-wait ${seconds}${fallback}.`,
  );
}

/** "14:05:09 (in 42m)", in local time: formatMoment, as every message says a moment. */
function moment(epochMs: number, now: number): string {
  return formatMoment(epochMs, now);
}

function ago(ms: number): string {
  return `${formatDuration(ms / 1000)} ago`;
}

/** Whose export this is: remembered per instance and key, so repeat runs skip GET /v1/me. */
export async function exportAccount(client: ApiClient, key: string): Promise<string> {
  const remembered = client.accounts?.lookup(key);
  if (remembered) return remembered;
  const account = accountName((await fetchMe(client, key)).json);
  if (!account) throw new LkError('GET /v1/me named no account; cannot tell whose export this is');
  return account;
}
