import { request, type Dispatcher } from 'undici';
import { KnownAccounts } from './known-accounts.js';
import { ApiError, LkError, type NetworkProblem, RateLimitError, TransportError } from '../util/errors.js';
import { formatBytes, formatDuration, formatMoment } from '../util/units.js';
import { USER_AGENT } from '../util/version.js';
import { registerSecret } from '../util/redact.js';
import { BudgetStore, budgetFromHeaders, Pacer, retryAfterSeconds, type Budget, type PacingWait } from './rate-limit.js';
import { sleep, type Waiter } from '../util/sleep.js';
import { scopeForPath } from './endpoints.js';
import { ResponseCache } from './response-cache.js';
import {
  createDispatcher,
  maskProxy,
  ProxyConnects,
  ProxyHangup,
  proxyFor,
  proxySettingsFromEnv,
  proxyVariable,
  type ProxySettings,
} from './transport.js';

export type Query = Record<string, string | number | boolean | undefined>;
export type Headers = Record<string, string | string[] | undefined>;

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** The body exactly as the server sent it. */
  text: string;
  /** The parsed body. */
  json: unknown;
}

export type { Waiter } from '../util/sleep.js';

/** One request and its answer, as -v reports it. */
export interface Exchange {
  url: URL;
  status: number;
  ms: number;
  budget: Budget | undefined;
  /** When the answer arrived (epoch ms), to say when the budget resets. */
  at: number;
  /** The proxy it went through (credentials masked), when one did. */
  proxy?: string | undefined;
}

export interface ClientOptions {
  baseUrl: string;
  key: string;
  /** Told of every response (for -v): the words are the caller's. */
  onExchange?: ((exchange: Exchange) => void) | undefined;
  timeoutMs: number;
  maxWaitSeconds: number;
  noWait: boolean;
  /** Retries after the first try for 5xx, resets, timeouts and bodies cut short. */
  retries?: number;
  maxBodyBytes?: number;
  now?: () => number;
  wait?: Waiter;
  signal?: AbortSignal;
  /** Where the last seen rate-limit budget is kept between runs (the cache folder); none: not kept. */
  cacheDir?: string;
  /** Pages in flight at once when a listing is followed to the end. */
  pagingConcurrency?: number;
  /** --cache: answer GETs from the response cache when younger than this (ms); needs cacheDir. */
  responseCacheMs?: number | undefined;
  /** Certificates to trust instead of Node's defaults (transport.ts trustedCertificates); none: the defaults. */
  ca?: string[] | undefined;
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read (the run's environment); none: no proxy. */
  proxyEnv?: NodeJS.ProcessEnv;
}

export interface RequestOptions {
  /** What a 404 means here, e.g. "library entry 42": the error then reads "no library entry 42". */
  notFound?: string;
  /**
   * Wait out only a 429 that spent the minute's budget; any other 429 (the export hour) throws RateLimitError at
   * once, for a caller that has a fallback (the export cache).
   */
  waitOnlyForBudget?: boolean;
  /** Called as body bytes arrive (for a download spinner); `total` from Content-Length when known. */
  onProgress?: (received: number, total: number | undefined) => void;
  /** Cancels this request (and its waits), e.g. when --max has enough items. */
  signal?: AbortSignal;
  /** How many requests the caller still has to make, this one included: work that fits the budget is not slowed. */
  demand?: () => number;
}

const RETRYABLE_STATUS = new Set([500, 502, 503, 504]);
const MAX_RATE_LIMIT_WAITS = 20;
export const DEFAULT_MAX_BODY_BYTES = 512 * 1024 * 1024;

/** The one HTTP client every command uses: base URL, key, timeout, JSON, typed errors, waits and retries. */
export class ApiClient {
  /** Made on the first request. */
  private dispatcher: Dispatcher | undefined;
  /** A request given up on before undici dispatched it still sits in its queue: the dispatcher is destroyed, not closed. */
  private abandoned = false;
  private readonly proxyConnects = new ProxyConnects();
  private readonly now: () => number;
  private readonly wait: Waiter;
  private readonly pacer: Pacer;
  /** Which account the key belongs to, kept in the cache folder: the budget is the account's, shared by its keys. */
  readonly accounts: KnownAccounts | undefined;
  readonly pagingConcurrency: number | undefined;
  private readonly responses: ResponseCache | undefined;
  readonly proxies: ProxySettings;

  constructor(private readonly options: ClientOptions) {
    registerSecret(options.key);
    this.now = options.now ?? Date.now;
    this.wait = options.wait ?? sleep;
    this.accounts = options.cacheDir ? new KnownAccounts(options.cacheDir, options.baseUrl) : undefined;
    this.pagingConcurrency = options.pagingConcurrency;
    this.responses =
      options.cacheDir && options.responseCacheMs
        ? new ResponseCache(options.cacheDir, options.baseUrl, options.key, options.responseCacheMs, this.now)
        : undefined;
    this.pacer = new Pacer({
      now: this.now,
      wait: this.wait,
      spaceOut: !options.noWait,
      maxSpacingMs: options.maxWaitSeconds * 1000,
      checkWait: (wait) => this.checkRateLimitWait(wait),
      store: options.cacheDir ? new BudgetStore(options.cacheDir, options.baseUrl, this.budgetOwner()) : undefined,
    });
    this.proxies = proxySettingsFromEnv(options.proxyEnv ?? {});
  }

  /** The proxy a request to this URL goes through (credentials masked), or undefined when it goes direct. */
  proxyFor(url: URL): string | undefined {
    const proxy = proxyFor(url, this.proxies);
    return proxy === undefined ? undefined : maskProxy(proxy);
  }

  /** The full URL of a /v1 path; the base URL's own path prefix (a reverse proxy's) is kept. */
  url(path: string, query: Query = {}): URL {
    if (!path.startsWith('/v1/') && path !== '/v1') throw new LkError(`internal: not an API path: ${path}`);
    const url = new URL(this.options.baseUrl + path);
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url;
  }

  /** The last rate-limit budget the server reported. */
  get lastBudget(): Budget | undefined {
    return this.pacer.budget;
  }

  async get(path: string, query: Query = {}, requestOptions: RequestOptions = {}): Promise<ApiResponse> {
    const url = this.url(path, query);
    // --cache: a fresh enough answer costs no request and no rate limit.
    const cached = this.responses?.read(url);
    if (cached) {
      try {
        return this.parsed(cached, url);
      } catch {
        // a damaged entry: ask the server
      }
    }
    const signal = anySignal(this.options.signal, requestOptions.signal);
    const retries = this.options.retries ?? 3;
    let failures = 0;
    let rateLimitWaits = 0;
    const firstTry = this.now();
    for (;;) {
      const ticket = await this.pacer.acquire(requestOptions.demand?.() ?? 1, signal);
      let response: ApiResponse;
      try {
        response = await this.send(url, requestOptions, ticket, signal);
        if (response.status >= 200 && response.status < 300) {
          const parsed = this.parsed(response, url);
          this.responses?.write(url, parsed);
          return parsed;
        }
      } catch (error) {
        if (error instanceof TransportError && error.retryable && failures < retries && this.fitsTheDeadline(error, firstTry, failures + 1)) {
          failures += 1;
          await this.wait(backoffMs(failures), `before retrying: ${error.message} (try ${failures + 1} of ${retries + 1})`, signal);
          continue;
        }
        if (error instanceof TransportError && failures > 0) {
          throw new TransportError(`${error.message} (tried ${failures + 1} times)`, false, error.hint, error.httpsBaseUrl, error.network);
        }
        throw error;
      }
      const { status } = response;
      if (status >= 300 && status < 400) throw redirectError(response, url);
      if (status === 429) {
        const seconds = this.retryDelaySeconds(response);
        // The minute's budget spent: every request of this run waits, not just this one. (A 429 with budget left is
        // another limit, such as the export hour, and must not stall the rest.)
        const budget = budgetFromHeaders(response.headers, this.now());
        const budgetSpent = budget ? budget.remaining <= 0 : seconds <= 60;
        if (budgetSpent) this.pacer.hold(this.now() + seconds * 1000);
        const callerFallsBack = requestOptions.waitOnlyForBudget === true && !budgetSpent;
        if (callerFallsBack || this.options.noWait || seconds > this.options.maxWaitSeconds || rateLimitWaits >= MAX_RATE_LIMIT_WAITS) {
          throw this.rateLimitError(seconds, this.options.noWait ? 'no-wait' : 'max-wait');
        }
        rateLimitWaits += 1;
        await this.wait(seconds * 1000, `for the rate limit: the server answered 429 (Retry-After ${formatDuration(seconds)})`, signal);
        continue;
      }
      const serverDelay = status === 503 ? retryAfterSeconds(response.headers['retry-after'], this.now()) : undefined;
      // The server names when it will be back: with --no-wait, or beyond --max-wait, asking sooner is pointless.
      const refusedBy =
        serverDelay === undefined || serverDelay <= 1
          ? undefined
          : this.options.noWait
            ? 'no-wait'
            : serverDelay > this.options.maxWaitSeconds
              ? 'max-wait'
              : undefined;
      if (refusedBy) throw this.apiError(response, url, requestOptions, failures + 1, refusedBy);
      if (RETRYABLE_STATUS.has(status) && failures < retries) {
        failures += 1;
        const delayMs = serverDelay !== undefined ? serverDelay * 1000 : backoffMs(failures);
        await this.wait(delayMs, `before retrying: HTTP ${status} from ${url.pathname} (try ${failures + 1} of ${retries + 1})`, signal);
        continue;
      }
      throw this.apiError(response, url, requestOptions, failures + 1);
    }
  }

  async close(): Promise<void> {
    if (this.abandoned) await this.dispatcher?.destroy();
    else await this.dispatcher?.close();
  }

  /**
   * A proxy that hangs up is tried again only while the tries fit in --timeout: it answers at once each time, so
   * without this bound a few backoffs would hold lk well past the timeout the user gave.
   */
  private fitsTheDeadline(error: TransportError, firstTry: number, nextFailure: number): boolean {
    if (error.network?.kind !== 'proxy') return true;
    return this.now() - firstTry + backoffCeilingMs(nextFailure) <= this.options.timeoutMs;
  }

  /** A wait for a spent budget: refused at once with --no-wait, or when longer than --max-wait. */
  private checkRateLimitWait(wait: PacingWait): void {
    const seconds = Math.ceil(wait.ms / 1000);
    if (this.options.noWait) throw this.rateLimitError(seconds, 'no-wait');
    if (seconds > this.options.maxWaitSeconds) throw this.rateLimitError(seconds, 'max-wait');
  }

  private async send(url: URL, requestOptions: RequestOptions, ticket: number, signal: AbortSignal | undefined): Promise<ApiResponse> {
    const started = this.now();
    // One controller, fed by the run's signal and by the deadline (AbortSignal.any per request showed in profiles).
    const aborter = new AbortController();
    const forward = () => aborter.abort();
    signal?.addEventListener('abort', forward, { once: true });
    if (signal?.aborted) aborter.abort();
    const deadline = new Deadline(this.options.timeoutMs, aborter);
    try {
      const result = await this.request(url, aborter, deadline);
      const text = await this.readBody(result, url, requestOptions.onProgress, deadline);
      const headers = result.headers as Headers;
      const budget = budgetFromHeaders(headers, this.now());
      if (budget) this.pacer.observe(budget, ticket);
      this.options.onExchange?.({ url, status: result.statusCode, ms: this.now() - started, budget, at: this.now(), proxy: this.proxyFor(url) });
      return { status: result.statusCode, headers, text, json: undefined };
    } finally {
      deadline.stop();
      signal?.removeEventListener('abort', forward);
    }
  }

  /**
   * The request until its headers arrive, under the exchange's deadline (see Deadline). The deadline is raced rather
   * than left to the abort signal: undici acts on an abort only once the request has a connection, and a proxy that
   * never answers CONNECT never gives it one.
   */
  private async request(url: URL, aborter: AbortController, deadline: Deadline): Promise<Dispatcher.ResponseData> {
    const proxyWasConnecting = () => this.proxyConnects.opening > 0 || (url.protocol === 'http:' && this.route(url).proxy !== undefined);
    try {
      this.dispatcher ??= createDispatcher({
        timeoutMs: this.options.timeoutMs,
        ca: this.options.ca,
        proxies: this.proxies,
        proxyConnects: this.proxyConnects,
      });
      const pending = request(url, {
        dispatcher: this.dispatcher,
        method: 'GET',
        headers: { authorization: `Bearer ${this.options.key}`, accept: 'application/json', 'user-agent': USER_AGENT },
        signal: aborter.signal,
      });
      const result = await Promise.race([pending, deadline.expiry]);
      if (result === EXPIRED) {
        this.abandoned = true;
        pending.then(
          (late) => late.body.destroy(),
          () => {},
        );
        throw EXPIRED;
      }
      return result;
    } catch (error) {
      if (deadline.expired) {
        const route = this.route(url);
        if (route.proxy && proxyWasConnecting())
          throw proxyError(route, url, `did not answer within ${formatSeconds(this.options.timeoutMs)}`, false);
        throw new TransportError(`GET ${url.pathname} failed: timed out`, true);
      }
      throw transportErrorFrom(error, url, 'request', this.route(url));
    }
  }

  private async readBody(result: Dispatcher.ResponseData, url: URL, onProgress: RequestOptions['onProgress'], deadline: Deadline): Promise<string> {
    const limit = this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    const declared = Number(result.headers['content-length']);
    const total = Number.isFinite(declared) && declared > 0 ? declared : undefined;
    const tooLarge = () => new TransportError(`response from ${url.pathname} is larger than ${formatBytes(limit)}`, false);
    // Announced too large: refused before a byte of it is read.
    if (total !== undefined && total > limit) {
      result.body.destroy();
      throw tooLarge();
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of result.body) {
        size += (chunk as Buffer).length;
        deadline.progress((chunk as Buffer).length);
        if (size > limit) {
          result.body.destroy();
          throw tooLarge();
        }
        chunks.push(chunk as Buffer);
        onProgress?.(size, total);
      }
    } catch (error) {
      if (error instanceof LkError) throw error;
      if (deadline.expired) throw new TransportError(`GET ${url.pathname} failed: timed out (the response arrived too slowly)`, true);
      throw transportErrorFrom(error, url, 'body');
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  private route(url: URL): Route {
    const proxy = this.proxyFor(url);
    return proxy === undefined ? {} : { proxy, variable: proxyVariable(this.options.proxyEnv ?? {}, url) };
  }

  private budgetOwner(): { account: string } | { key: string } {
    const account = this.accounts?.lookup(this.options.key);
    return account ? { account } : { key: this.options.key };
  }

  private parsed(response: ApiResponse, url: URL): ApiResponse {
    const encoding = String(response.headers['content-encoding'] ?? 'identity')
      .trim()
      .toLowerCase();
    if (encoding !== '' && encoding !== 'identity') {
      // lk asks for no compression; a body encoded anyway cannot be read, and asking again will not change it.
      throw new TransportError(`the response from ${url.pathname} is compressed (${encoding.slice(0, 40)}), which lk did not ask for`, false);
    }
    try {
      response.json = JSON.parse(response.text);
    } catch (error) {
      const type = String(response.headers['content-type'] ?? 'no content type');
      // A body whose length was known (Content-Length, or chunked to its end) arrived whole: it is just not JSON.
      const complete = response.headers['content-length'] !== undefined || /chunked/i.test(String(response.headers['transfer-encoding'] ?? ''));
      if (error instanceof SyntaxError && /json/i.test(type) && !complete) {
        throw new TransportError(`GET ${url.pathname} failed: the response was cut short`, true);
      }
      const reason =
        error instanceof RangeError
          ? 'is nested too deeply to read'
          : /json/i.test(type)
            ? 'is not valid JSON'
            : `is not JSON (${type.split(';')[0]})`;
      throw new TransportError(
        `the response from ${url.pathname} ${reason}`,
        false,
        /json/i.test(type) ? undefined : 'Is the base URL the API and not the web app?',
      );
    }
    return response;
  }

  private retryDelaySeconds(response: ApiResponse): number {
    const fromHeader = retryAfterSeconds(response.headers['retry-after'], this.now());
    if (fromHeader !== undefined) return Math.ceil(fromHeader);
    const budget = this.pacer.budget;
    return budget ? Math.max(1, Math.ceil((budget.resetAt - this.now()) / 1000)) : 60;
  }

  private rateLimitError(seconds: number, refusedBy: 'no-wait' | 'max-wait'): RateLimitError {
    const resetAt = new Date(this.now() + seconds * 1000);
    const when = formatMoment(resetAt.getTime(), this.now());
    return new RateLimitError(`rate limited (api.rate_limited): the budget resets at ${when}`, resetAt, undefined, refusedBy);
  }

  private apiError(response: ApiResponse, url: URL, requestOptions: RequestOptions, tries: number, refusedWait?: 'no-wait' | 'max-wait'): ApiError {
    const body = safeJson(response.text);
    const code = typeof body?.code === 'string' ? cut(body.code, 80) : undefined;
    const serverMessage = typeof body?.message === 'string' ? cut(body.message, MAX_SERVER_MESSAGE) : undefined;
    const details = {
      status: response.status,
      code,
      body,
      retryAfterSeconds: retryAfterSeconds(response.headers['retry-after'], this.now()),
      refusedWait,
    };
    const suffix = code ? ` (${code})` : '';
    if (response.status === 401) {
      return new ApiError(`the key was refused${serverMessage ? `: ${serverMessage}` : ''}${suffix}`, details);
    }
    if (response.status === 403 && code === 'user.domain_disabled') {
      const domain = url.searchParams.get('domain') ?? (typeof body?.domain === 'string' ? body.domain : 'that');
      return new ApiError(`the ${domain} domain is disabled for this account${suffix}`, { ...details, domain });
    }
    if (response.status === 403) {
      const scope = (typeof body?.scope === 'string' ? body.scope : undefined) ?? scopeForPath(url.pathname);
      const what = scope ? `the key lacks the scope ${scope}` : 'the key is not allowed to do this';
      return new ApiError(`${what}${suffix}`, { ...details, scope });
    }
    if (response.status === 404) {
      return new ApiError(requestOptions.notFound ? `no ${requestOptions.notFound}` : `not found: ${url.pathname}${suffix}`, details);
    }
    const tried = tries > 1 ? ` (tried ${tries} times)` : '';
    const message = serverMessage ?? `HTTP ${response.status}`;
    const asked =
      refusedWait && details.retryAfterSeconds !== undefined ? `; the server asked to retry after ${formatDuration(details.retryAfterSeconds)}` : '';
    return new ApiError(`${message}${suffix}${tried}${asked}`, details);
  }
}

/** A server's message is quoted, not published: a few hundred characters say what went wrong. */
const MAX_SERVER_MESSAGE = 300;

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/**
 * --timeout bounds the whole exchange, not only the wait for headers: the time runs from the request, and it is
 * renewed only while the body keeps arriving at a useful pace (MIN_PROGRESS_BYTES per period). A body trickling a
 * byte a second ends in a timeout; a large export arriving steadily does not.
 */
class Deadline {
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

const EXPIRED = Symbol('deadline passed');

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))}s`;
}

const MIN_PROGRESS_BYTES = 64 * 1024;

function safeJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function redirectError(response: ApiResponse, url: URL): LkError {
  const location = String(response.headers.location ?? '');
  let httpsBaseUrl: string | undefined;
  try {
    const target = new URL(location, url);
    if (url.protocol === 'http:' && target.protocol === 'https:' && target.hostname === url.hostname) {
      httpsBaseUrl = `${target.origin}${url.pathname.replace(/\/v1(\/.*)?$/, '')}`;
    }
  } catch {
    // a Location we cannot parse is still worth naming
  }
  return new TransportError(
    `the server answered ${response.status} redirecting to ${location || 'nowhere'}; lk does not follow redirects with the key`,
    false,
    httpsBaseUrl ? undefined : 'Check the base URL.',
    httpsBaseUrl,
  );
}

const RETRYABLE_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
]);

/** How a request travelled: through which proxy (masked), named by which variable. */
interface Route {
  proxy?: string;
  variable?: string | undefined;
}

const UNKNOWN_AUTHORITY = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
]);
const NOT_TLS = new Set(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'ERR_SSL_HTTP_REQUEST', 'ERR_SSL_RECORD_LAYER_FAILURE']);

/** A TLS failure as one plain line naming the host and the cause (the advice is output/messages.ts's). */
function tlsErrorFrom(code: string | undefined, message: string, url: URL, altNames: unknown): TransportError | undefined {
  const host = url.host;
  const tls = (reason: Extract<NetworkProblem, { kind: 'tls' }>['reason'], text: string) =>
    new TransportError(`TLS with ${host} failed: ${text}`, false, undefined, undefined, { kind: 'tls', reason, host });
  if (code && UNKNOWN_AUTHORITY.has(code))
    return tls('unknown-authority', `its certificate is signed by an authority this machine does not trust (${code})`);
  if (code === 'CERT_HAS_EXPIRED') return tls('expired', 'its certificate has expired (CERT_HAS_EXPIRED)');
  if (code === 'CERT_NOT_YET_VALID') return tls('not-yet-valid', 'its certificate is not valid yet (CERT_NOT_YET_VALID)');
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const names = typeof altNames === 'string' && altNames ? altNames : /cert's (?:altnames|list): (.+)$/.exec(message.trim())?.[1];
    return tls('name-mismatch', `its certificate is for ${names ? names.trim() : 'other names'}, not ${url.hostname}`);
  }
  if ((code && NOT_TLS.has(code)) || /wrong version number|packet length too long|http request/i.test(message)) {
    return tls('not-tls', 'it answered in plain http, not TLS (is this an http port?)');
  }
  if (code?.startsWith('ERR_SSL_') || code?.startsWith('ERR_TLS_') || code?.startsWith('CERT_')) return tls('other', `${message} (${code})`);
  return undefined;
}

function proxyError(route: Route, url: URL, why: string, retryable: boolean): TransportError {
  const from = route.variable ? ` (from ${route.variable})` : '';
  return new TransportError(`the proxy ${route.proxy}${from} ${why}`, retryable, undefined, undefined, {
    kind: 'proxy',
    proxy: route.proxy!,
    variable: route.variable,
    host: url.host,
  });
}

/** `phase` body: the headers had arrived, so a closed socket means the body was cut short. */
function transportErrorFrom(error: unknown, url: URL, phase: 'request' | 'body' = 'request', route: Route = {}): LkError {
  if (error instanceof LkError) return error;
  const err = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = err?.code ?? err?.cause?.code;
  const message = String(err?.message ?? '');
  // undici: "Proxy response (403) !== 200 when HTTP Tunneling", an AbortError that no one asked for.
  const tunnel = /Proxy response \((\d+)\)/.exec(message);
  if (route.proxy && (tunnel || code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')) {
    const why = tunnel ? `refused the connection to ${url.host} (HTTP ${tunnel[1]})` : `cannot be reached (${describeNetworkCode(code) ?? code})`;
    return proxyError(route, url, why, false);
  }
  // The proxy hung up: on CONNECT (transport.ts ProxyHangup), or on the request it was to forward or tunnel.
  if (route.proxy && error instanceof ProxyHangup) {
    return proxyError(route, url, error.onConnect ? 'closed the connection on CONNECT' : 'closed the connection on the forwarded request', true);
  }
  if (route.proxy && phase === 'request' && (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET')) {
    return proxyError(route, url, 'closed the connection on the forwarded request', true);
  }
  if (err?.name === 'AbortError' || code === 'UND_ERR_ABORTED') return new TransportError('interrupted', false);
  if (phase === 'request') {
    const withCert = err as { cert?: { subjectaltname?: unknown }; cause?: { cert?: { subjectaltname?: unknown } } };
    const altNames = withCert?.cert?.subjectaltname ?? withCert?.cause?.cert?.subjectaltname;
    const tlsError = tlsErrorFrom(code ?? err?.cause?.code, `${message} ${String(err?.cause?.message ?? '')}`, url, altNames);
    if (tlsError) return tlsError;
    if (code === 'ECONNREFUSED') {
      // Nothing listens there: a retry a second later would meet the same closed port, so none is made.
      return new TransportError(`cannot connect to ${url.host}: connection refused`, false, undefined, undefined, {
        kind: 'refused',
        host: url.host,
      });
    }
  }
  const cut = phase === 'body' && (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'UND_ERR_CLOSED');
  const reason = cut
    ? 'the response was cut short'
    : (describeNetworkCode(code) ?? err?.message ?? (phase === 'body' ? 'the response was cut short' : 'the request failed'));
  // Plain http to a TLS port: the server hangs up on the first bytes it cannot read as a TLS hello.
  const tlsPort = phase === 'request' && url.protocol === 'http:' && (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET');
  return new TransportError(
    `GET ${url.pathname} failed: ${reason}`,
    code !== undefined && RETRYABLE_CODES.has(code),
    undefined,
    undefined,
    tlsPort ? { kind: 'tls-port', host: url.host } : undefined,
  );
}

function describeNetworkCode(code: string | undefined): string | undefined {
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return 'the connection was reset';
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'ETIMEDOUT':
      return 'timed out';
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
      return 'the response was cut short';
    case 'ENOTFOUND':
      return 'host not found';
    default:
      return undefined;
  }
}

function anySignal(...signals: (AbortSignal | undefined)[]): AbortSignal | undefined {
  const present = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  return present.length > 1 ? AbortSignal.any(present) : present[0];
}

/** Exponential backoff with full jitter: 0.5–1 s, 1–2 s, 2–4 s… */
export function backoffMs(failures: number): number {
  const ceiling = backoffCeilingMs(failures);
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

function backoffCeilingMs(failures: number): number {
  return 1000 * 2 ** (failures - 1);
}
