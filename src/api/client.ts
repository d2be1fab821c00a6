import { KnownAccounts } from './known-accounts.js';
import { LkError, type NetworkWording, TransportError } from '../util/errors.js';
import { USER_AGENT } from '../util/version.js';
import { registerSecret } from '../util/redact.js';
import { BudgetStore, budgetFromHeaders, Pacer, type Budget, type PacingWait } from './rate-limit.js';
import { sleep, type Waiter } from '../util/sleep.js';
import { ResponseCache } from './response-cache.js';
import { maskProxy, ProxyConnects, proxyFor, proxySettingsFromEnv, proxyVariable, type ProxySettings } from './transport.js';
import { rateLimitError } from './http/api-errors.js';
import { Deadline, EXPIRED } from './http/deadline.js';
import { proxyError, transportErrorFrom, type Route } from './http/network-errors.js';
import { arrivedWhole, DEFAULT_MAX_BODY_BYTES, DeferredResponse, parsed, readBody, type ApiResponse, type Headers } from './http/response.js';
import { decide, retryPolicies } from './http/retry-policies.js';
import { openTransport, transportFor } from './http/open-transport.js';
import type { RawResponse, Transport } from './http/transport.js';

export type Query = Record<string, string | number | boolean | undefined>;
export type { ApiResponse, Headers } from './http/response.js';

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
  /** The sentence a person reads for a TLS, proxy or connection failure: the command line's words. */
  describeNetworkProblem: NetworkWording;
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
  /** Where HTTPS_PROXY, HTTP_PROXY, NO_PROXY and LK_TRANSPORT are read (the run's environment); none: no proxy. */
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
  /**
   * A page fetched ahead of its reader: a body that arrived whole is parsed when its `json` is first read (see
   * http/response.ts DeferredResponse), and a body that is not JSON fails there.
   */
  deferParse?: boolean;
}

/**
 * What reading the API takes of a client (paginate, the export, the sync): a caller may hand on a wrapper of its own,
 * e.g. one that counts the requests of a run.
 */
export type ApiReader = Pick<ApiClient, 'get' | 'accounts' | 'pagingConcurrency'>;

/** An answer as it arrived, its body not yet decoded. */
interface Received {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

/** Connections kept per origin: the pages of --all in flight, with room to spare. */
const CONNECTIONS = 8;

/**
 * The one HTTP client every command uses: base URL, key, timeout, JSON, typed errors, waits and retries (the
 * policies of http/retry-policies.ts), whichever transport (http/transport.ts) carries the request.
 */
export class ApiClient {
  /** Opened on the first request. */
  private transport: Promise<Transport> | undefined;
  /** A request given up on before it was sent may still sit in a queue: connections are destroyed, not closed. */
  private abandoned = false;
  private readonly proxyConnects = new ProxyConnects();
  private readonly combinedSignals = new WeakMap<AbortSignal, AbortSignal>();
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

  /** A GET of an API path: the parsed answer of a 2xx, tried as often as the retry policies allow, or their error. */
  async get(path: string, query: Query = {}, requestOptions: RequestOptions = {}): Promise<ApiResponse> {
    const url = this.url(path, query);
    // --cache: a fresh enough answer costs no request and no rate limit.
    const cached = this.responses?.read(url);
    if (cached) {
      try {
        return parsed(cached, url);
      } catch {
        // a damaged entry: ask the server
      }
    }
    const signal = this.signalFor(requestOptions.signal);
    const policies = retryPolicies({
      url,
      now: this.now,
      noWait: this.options.noWait,
      maxWaitSeconds: this.options.maxWaitSeconds,
      retries: this.options.retries ?? 3,
      timeoutMs: this.options.timeoutMs,
      notFound: requestOptions.notFound,
      waitOnlyForBudget: requestOptions.waitOnlyForBudget === true,
      lastBudget: () => this.pacer.budget,
      holdAll: (until) => this.pacer.hold(until),
    });
    for (;;) {
      const ticket = await this.pacer.acquire(requestOptions.demand?.() ?? 1, signal);
      let outcome: { response: ApiResponse } | { error: unknown };
      try {
        const { status, headers, bytes } = await this.send(url, requestOptions, ticket, signal);
        if (status >= 200 && status < 300) {
          // --cache keeps only what parsed; a body that may be cut short is parsed now, to be tried again if it was.
          if (requestOptions.deferParse && !this.responses && arrivedWhole(headers)) return new DeferredResponse(status, headers, bytes, url);
          const answer = parsed({ status, headers, text: bytes.toString('utf8'), json: undefined }, url);
          this.responses?.write(url, answer);
          return answer;
        }
        outcome = { response: { status, headers, text: bytes.toString('utf8'), json: undefined } };
      } catch (error) {
        outcome = { error };
      }
      const verdict = decide(policies, outcome);
      if ('fail' in verdict) throw verdict.fail;
      await this.wait(verdict.retryAfterMs, verdict.why, signal);
    }
  }

  async close(): Promise<void> {
    const transport = await this.transport?.catch(() => undefined);
    await transport?.close(this.abandoned);
  }

  /** A wait for a spent budget: refused at once with --no-wait, or when longer than --max-wait. */
  private checkRateLimitWait(wait: PacingWait): void {
    const seconds = Math.ceil(wait.ms / 1000);
    if (this.options.noWait) throw rateLimitError(seconds, 'no-wait', this.now());
    if (seconds > this.options.maxWaitSeconds) throw rateLimitError(seconds, 'max-wait', this.now());
  }

  /** One try: the request, its whole body, the budget it reports, told to -v. */
  private async send(url: URL, requestOptions: RequestOptions, ticket: number, signal: AbortSignal | undefined): Promise<Received> {
    const started = this.now();
    // One controller, fed by the run's signal and by the deadline (AbortSignal.any per request showed in profiles).
    const aborter = new AbortController();
    const forward = () => aborter.abort();
    signal?.addEventListener('abort', forward, { once: true });
    if (signal?.aborted) aborter.abort();
    const deadline = new Deadline(this.options.timeoutMs, aborter);
    const route = this.route(url);
    try {
      const result = await this.request(url, route, aborter, deadline);
      const limit = this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
      const bytes = await readBody(result, url, limit, deadline, requestOptions.onProgress, this.options.describeNetworkProblem);
      const budget = budgetFromHeaders(result.headers, this.now());
      if (budget) this.pacer.observe(budget, ticket);
      this.options.onExchange?.({ url, status: result.status, ms: this.now() - started, budget, at: this.now(), proxy: route.proxy });
      return { status: result.status, headers: result.headers, bytes };
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
  private async request(url: URL, route: Route, aborter: AbortController, deadline: Deadline): Promise<RawResponse> {
    const proxyWasConnecting = () => this.proxyConnects.opening > 0 || (url.protocol === 'http:' && route.proxy !== undefined);
    try {
      const transport = await this.openTransport();
      const headers = { authorization: `Bearer ${this.options.key}`, accept: 'application/json', 'user-agent': USER_AGENT };
      const pending = transport.get(url, headers, aborter.signal);
      const result = await Promise.race([pending, deadline.expiry]);
      if (result === EXPIRED) {
        this.abandoned = true;
        pending.then(
          (late) => late.discard(),
          () => {},
        );
        throw EXPIRED;
      }
      return result;
    } catch (error) {
      if (deadline.expired) {
        if (route.proxy && proxyWasConnecting())
          throw proxyError(route, url, { what: 'no-answer', withinMs: this.options.timeoutMs }, false, this.options.describeNetworkProblem);
        throw new TransportError(`GET ${url.pathname} failed: timed out`, true);
      }
      throw transportErrorFrom(error, url, this.options.describeNetworkProblem, 'request', route);
    }
  }

  /** Through a proxy undici; otherwise node:http/node:https (http/transport.ts transportFor). */
  private openTransport(): Promise<Transport> {
    this.transport ??= openTransport(
      transportFor(this.proxies.httpProxy !== undefined || this.proxies.httpsProxy !== undefined, this.options.proxyEnv ?? {}),
      {
        timeoutMs: this.options.timeoutMs,
        ca: this.options.ca,
        proxies: this.proxies,
        proxyConnects: this.proxyConnects,
        connections: CONNECTIONS,
      },
    );
    return this.transport;
  }

  private route(url: URL): Route {
    const proxy = this.proxyFor(url);
    return proxy === undefined ? {} : { proxy, variable: proxyVariable(this.options.proxyEnv ?? {}, url) };
  }

  /**
   * The run's signal and the request's as one, made once per request signal: a listing passes the same one with each
   * of its pages, and AbortSignal.any per page showed in the profile of --all.
   */
  private signalFor(requestSignal: AbortSignal | undefined): AbortSignal | undefined {
    const runSignal = this.options.signal;
    if (!runSignal || !requestSignal) return runSignal ?? requestSignal;
    let both = this.combinedSignals.get(requestSignal);
    if (!both) this.combinedSignals.set(requestSignal, (both = AbortSignal.any([runSignal, requestSignal])));
    return both;
  }

  private budgetOwner(): { account: string } | { key: string } {
    const account = this.accounts?.lookup(this.options.key);
    return account ? { account } : { key: this.options.key };
  }
}
