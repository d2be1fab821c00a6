import { statSync, accessSync, constants } from 'node:fs';
import { CHECKS } from '../output/shape.js';
import type { Command } from 'commander';
import { accountName, fetchMe } from '../api/account.js';
import type { ApiResponse } from '../api/client.js';
import { pathOf } from '../api/endpoints.js';
import { budgetFromHeaders } from '../api/rate-limit.js';
import { maskKey } from '../util/redact.js';
import { isLoopbackHost } from '../config/base-url.js';
import { MIRROR_STALE_MS, mirrorPath } from '../config/paths.js';
import { configFilePath } from '../config/store.js';
import type { Context } from '../context.js';
import { LkError, RateLimitError, TransportError, ApiError } from '../util/errors.js';
import { formatDuration } from '../util/units.js';
import { hintFor } from '../output/wording/messages.js';
import type { Check, Checks } from '../output/result.js';
import { addCommand, defineCommand } from './define.js';
import { flag } from './flags.js';
import { except, REQUESTS } from './uses.js';
import { MINIMUM_NODE, nodeHasSqlite } from '../mirror/open.js';
import { NEWER_NODE_WAYS } from '../util/newer-node.js';
import { ExportCache } from '../export/cache.js';

export type { Check };

/** Node lines lk supports: 22, 24 and 26; 20.18+ still works (Debian stable ships it) but is past its end of life. */
const SUPPORTED_MAJORS = [22, 24, 26];
const MIN_VERSION = [20, 18, 1];
/** Clock skew worth a warning: TLS validity, key expiry and the rate-limit window all read the clock. */
const SKEW_WARN_SECONDS = 60;
const EXPORT_INTERVAL_MS = 3600 * 1000;

/** `lk doctor`: every check, each with its fix. */
const doctorCommand = defineCommand({
  name: 'doctor',
  uses: except(REQUESTS, { cache: 'a probe asks the server', maxWait: 'a probe never waits', wait: 'a probe never waits' }),
  description: 'check Node, folders, key, instance, TLS, proxy, clock, rate limit, export hour and mirror; each with the fix',
  output: CHECKS,
  flags: { json: flag.toggle('--json', 'the checks as one JSON object: {ok, checks: [{id, status, message, fix}]}') },
  examples: ['lk doctor', 'lk doctor --json | jq -r \'.checks[] | select(.status != "ok") | .fix\''],
  run: (ctx) => gatherChecks(ctx),
});

export function registerDoctor(program: Command): void {
  addCommand(program, doctorCommand);
}

function atLeast(version: string, minimum: number[]): boolean {
  const parts = version.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((parts[i] ?? 0) !== minimum[i]) return (parts[i] ?? 0) > minimum[i]!;
  return true;
}

export function nodeCheck(version: string): Check {
  const major = Number(version.split('.')[0]);
  if (!atLeast(version, MIN_VERSION)) {
    return {
      id: 'node',
      status: 'fail',
      message: `Node ${version} is too old: lk needs 20.18.1 or later`,
      fix: 'Install Node 22, 24 or 26 (https://nodejs.org).',
    };
  }
  if (SUPPORTED_MAJORS.includes(major) || major > Math.max(...SUPPORTED_MAJORS)) {
    return { id: 'node', status: 'ok', message: `Node ${version} (supported: 22, 24, 26)`, fix: null };
  }
  return {
    id: 'node',
    status: 'warn',
    message: `Node ${version} works, but ${major} is not a supported line (supported: 22, 24, 26)`,
    fix: 'Upgrade to Node 22, 24 or 26.',
  };
}

/** The mirror's rule (src/mirror/open.ts, loaded here only: it is not part of start-up). */
export async function sqliteCheck(version: string): Promise<Check> {
  if (nodeHasSqlite(version)) return { id: 'sqlite', status: 'ok', message: 'node:sqlite is available for the mirror (lk sync)', fix: null };
  return {
    id: 'sqlite',
    status: 'warn',
    message: `node:sqlite needs Node ${MINIMUM_NODE}+ (this is ${version}): lk sync, search, sql and --offline are unavailable`,
    fix: NEWER_NODE_WAYS,
  };
}

/** A folder lk writes to: present or not yet, private, writable. */
function folderCheck(id: string, what: string, dir: string, file?: string): Check {
  let mode: number;
  try {
    mode = statSync(dir).mode & 0o777;
  } catch {
    return { id, status: 'ok', message: `${what} ${dir} (not created yet)`, fix: null };
  }
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    return { id, status: 'fail', message: `${what} ${dir} is not writable`, fix: `Fix its owner or mode: chmod u+rwx ${dir}` };
  }
  if (mode & 0o077) {
    return { id, status: 'warn', message: `${what} ${dir} is open to others (mode ${mode.toString(8).padStart(4, '0')})`, fix: `chmod 700 ${dir}` };
  }
  if (file) {
    try {
      const fileMode = statSync(file).mode & 0o777;
      if (fileMode & 0o077) {
        return {
          id,
          status: 'warn',
          message: `${file} is readable by others (mode ${fileMode.toString(8).padStart(4, '0')})`,
          fix: `chmod 600 ${file}`,
        };
      }
    } catch {
      // no file yet
    }
  }
  return { id, status: 'ok', message: `${what} ${dir} (mode ${mode.toString(8).padStart(4, '0')})`, fix: null };
}

function fromError(id: string, error: unknown): Check {
  if (error instanceof LkError) return { id, status: 'fail', message: error.message, fix: hintFor(error) ?? null };
  return { id, status: 'fail', message: String((error as Error)?.message ?? error), fix: null };
}

/** Every check, in order: the facts, for the wrapper to show (and for a test to read, from a Context of its own). */
export async function gatherChecks(ctx: Context): Promise<Checks> {
  const checks: Check[] = [];
  const version = process.versions.node;
  checks.push(nodeCheck(version), await sqliteCheck(version));
  checks.push(folderCheck('config', 'config folder', ctx.configDir, configFilePath(ctx.configDir)));
  checks.push(folderCheck('cache', 'cache folder', ctx.cacheDir));

  // Profile and key: where the key comes from (never the key itself).
  let key: string | undefined;
  try {
    const resolved = await ctx.key();
    key = resolved.key;
    checks.push({
      id: 'key',
      status: 'ok',
      message: `profile "${ctx.settings.profileName}", key ${maskKey(resolved.key)} from ${resolved.origin}`,
      fix: null,
    });
  } catch (error) {
    checks.push(fromError('key', error));
  }

  let baseUrl: string | undefined;
  try {
    baseUrl = ctx.instance().baseUrl;
  } catch (error) {
    checks.push(fromError('instance', error));
  }

  if (baseUrl) await instanceChecks(ctx, checks, baseUrl, key);
  checks.push(mirrorCheck(ctx));

  return { kind: 'checks', checks };
}

async function instanceChecks(ctx: Context, checks: Check[], baseUrl: string, key: string | undefined): Promise<void> {
  const url = new URL(baseUrl);
  let client;
  try {
    // Without a key the probe still tells reachability, TLS and the clock: the server answers 401 with headers.
    client = await ctx.client({ probe: true, baseUrl, key: key ?? 'lk_doctor' });
  } catch (error) {
    checks.push(fromError('instance', error));
    return;
  }
  const proxy = client.proxyFor(new URL(pathOf('me'), baseUrl));
  const plainHttp = url.protocol === 'http:';
  if (proxy) {
    checks.push(
      plainHttp
        ? {
            id: 'proxy',
            status: 'warn',
            message: `through ${proxy} to plain-http ${url.host}: the proxy can read the key`,
            fix: `Use https, or NO_PROXY=${url.hostname}.`,
          }
        : { id: 'proxy', status: 'ok', message: `through ${proxy} (a CONNECT tunnel: the key stays inside TLS)`, fix: null },
    );
  } else {
    const set = client.proxies.httpProxy || client.proxies.httpsProxy;
    checks.push({
      id: 'proxy',
      status: 'ok',
      message: set ? `direct (NO_PROXY matches ${url.hostname})` : 'direct (no HTTPS_PROXY / HTTP_PROXY)',
      fix: null,
    });
  }

  let response: ApiResponse | undefined;
  let failure: unknown;
  // Without a key, the 401 is the answer hoped for: the instance is there.
  let refusedKeyless = false;
  try {
    response = key ? await fetchMe(client, key) : undefined;
    if (!key) await client.get(pathOf('me'));
  } catch (error) {
    failure = error;
    refusedKeyless = error instanceof ApiError && error.status === 401 && !key;
    if (refusedKeyless) failure = undefined;
  } finally {
    await client.close();
  }

  const reached = failure === undefined || failure instanceof ApiError || failure instanceof RateLimitError;
  const network = failure instanceof TransportError ? failure.network : undefined;
  if (network?.kind === 'tls') {
    checks.push({ id: 'instance', status: 'ok', message: `${url.host} answers (TLS failed, see below)`, fix: null });
    checks.push(fromError('tls', failure));
  } else if (!reached) {
    checks.push(fromError('instance', failure));
    if (!plainHttp) checks.push({ id: 'tls', status: 'warn', message: `not checked: ${url.host} could not be reached`, fix: null });
  } else {
    const answered = response?.status ?? (failure instanceof ApiError ? failure.status : refusedKeyless ? 401 : undefined);
    const status = answered === undefined ? 'rate limited' : `GET /v1/me → ${answered}`;
    checks.push({ id: 'instance', status: 'ok', message: `${baseUrl} answers (${status})`, fix: null });
    if (plainHttp) {
      checks.push(plainHttpCheck(url));
    } else {
      const ca = ctx.settings.caFile();
      checks.push({
        id: 'tls',
        status: 'ok',
        message: `certificate of ${url.host} trusted${ca ? ` (with ${ca.file} from ${ca.source})` : ''}`,
        fix: null,
      });
    }
  }
  if (failure instanceof ApiError && failure.status === 401 && key) {
    checks.push({ id: 'auth', status: 'fail', message: failure.message, fix: hintFor(failure) ?? null });
  }

  // The answer's headers: clock and budget.
  const headers = response?.headers;
  if (headers) {
    const date = Date.parse(String(headers.date ?? ''));
    if (Number.isNaN(date)) {
      checks.push({ id: 'clock', status: 'warn', message: 'the server sent no Date header: skew not measured', fix: null });
    } else {
      // Date has whole seconds: the server's time lies somewhere in the second after it, so measure from its middle.
      const skew = Math.round((ctx.now() - (date + 500)) / 1000);
      const text = `this machine's clock is ${formatDuration(Math.abs(skew))} ${skew >= 0 ? 'ahead of' : 'behind'} the server's`;
      checks.push(
        Math.abs(skew) > SKEW_WARN_SECONDS
          ? {
              id: 'clock',
              status: 'warn',
              message: text,
              fix: 'Synchronise the clock (e.g. timedatectl set-ntp true): certificates, key expiry and rate-limit resets read it.',
            }
          : { id: 'clock', status: 'ok', message: Math.abs(skew) <= 1 ? "in step with the server's" : text, fix: null },
      );
    }
    const budget = budgetFromHeaders(headers, ctx.now());
    if (!budget) {
      checks.push({ id: 'budget', status: 'warn', message: 'the server sent no X-RateLimit headers', fix: null });
    } else {
      const reset = formatDuration(Math.max(0, Math.ceil((budget.resetAt - ctx.now()) / 1000)));
      checks.push(
        budget.remaining <= 0
          ? {
              id: 'budget',
              status: 'warn',
              message: `rate limit spent: 0/${budget.limit} left, resets in ${reset}`,
              fix: `Wait ${reset}; commands wait on their own unless --no-wait.`,
            }
          : { id: 'budget', status: 'ok', message: `${budget.remaining}/${budget.limit} requests left this minute (resets in ${reset})`, fix: null },
      );
    }
  } else if (failure instanceof RateLimitError) {
    checks.push({ id: 'budget', status: 'warn', message: failure.message, fix: hintFor(failure) ?? null });
  }

  if (response && key) checks.push(await exportCheck(ctx, baseUrl, accountName(response.json)));
}

/** The tls line for a plain-http instance: fine on loopback (config/base-url's definition), a warning anywhere else. */
export function plainHttpCheck(url: URL): Check {
  return isLoopbackHost(url.hostname)
    ? { id: 'tls', status: 'ok', message: 'plain http on loopback (nothing leaves this machine)', fix: null }
    : { id: 'tls', status: 'warn', message: `plain http to ${url.host}: the key travels unencrypted`, fix: 'Serve the instance over https.' };
}

async function exportCheck(ctx: Context, baseUrl: string, account: string | undefined): Promise<Check> {
  if (!account) return { id: 'export', status: 'warn', message: 'GET /v1/me named no account: the export cache cannot be found', fix: null };
  const lookup = await new ExportCache(ctx.cacheDir, baseUrl).read(account);
  if (lookup.state === 'missing') return { id: 'export', status: 'ok', message: `no export of ${account} cached: one is possible now`, fix: null };
  if (lookup.state === 'damaged') {
    return {
      id: 'export',
      status: 'warn',
      message: `the cached export of ${account} is damaged (${lookup.reason})`,
      fix: 'The next lk export fetches a fresh one (if the hour allows).',
    };
  }
  if (lookup.state === 'untrusted') {
    return {
      id: 'export',
      status: 'warn',
      message: `the export cache is not used: ${lookup.reason}`,
      fix: 'chmod 700 the folder named, if it is yours.',
    };
  }
  const age = ctx.now() - lookup.entry.fetchedAt;
  const ago = formatDuration(Math.max(0, Math.round(age / 1000)));
  if (age < EXPORT_INTERVAL_MS) {
    const wait = formatDuration(Math.ceil((EXPORT_INTERVAL_MS - age) / 1000));
    return {
      id: 'export',
      status: 'ok',
      message: `last export of ${account} ${ago} ago: within the hour, lk export answers from the cache; a fresh one in ${wait}`,
      fix: null,
    };
  }
  return { id: 'export', status: 'ok', message: `last export of ${account} ${ago} ago: a fresh one is possible now`, fix: null };
}

function mirrorCheck(ctx: Context): Check {
  const file = mirrorPath(ctx.env, ctx.settings.profileName);
  let mtime: number;
  try {
    mtime = statSync(file).mtimeMs;
  } catch {
    return { id: 'mirror', status: 'ok', message: `no mirror (${file}); lk sync creates one`, fix: null };
  }
  const age = Math.max(0, ctx.now() - mtime);
  const text = `${file}, last written ${formatDuration(Math.round(age / 1000))} ago`;
  return age > MIRROR_STALE_MS
    ? { id: 'mirror', status: 'warn', message: text, fix: 'Run lk sync to bring it up to date.' }
    : { id: 'mirror', status: 'ok', message: text, fix: null };
}
