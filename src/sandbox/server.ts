/**
 * The HTTP side of the sandbox: counting, CORS, injected faults, rate limit, authentication, routing, errors and
 * writing responses. The order of the checks is documented in README.md ("Request pipeline").
 */
import type { AltVariant } from './variant.js';
import type { ExportCollection, ExportDress } from './export.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { authenticate, forbiddenScope, type KeyRecord } from './auth.js';
import type { SandboxData } from './data.js';
import { HttpError, notFound, rateLimited } from './errors.js';
import { DEFAULT_STALL_MS, HTML_LOGIN_PAGE, faultFate, faultsActive, faultsApply, type FaultFate, type FaultOptions } from './faults.js';
import { RateLimiter, type BudgetState } from './rate-limit.js';
import { matchRoute, type Reply } from './routes.js';
import { ADMIN_PREFIX, adminReply } from './admin.js';
import type { SandboxMutations } from './mutations.js';

export interface SandboxCounters {
  /** Every HTTP request received (any path, any status). */
  requests: number;
  /** Requests per pathname (no query), e.g. "/v1/library". */
  byPath: Record<string, number>;
  /** Responses per status code, e.g. {"200": 10, "429": 2}. */
  byStatus: Record<string, number>;
  /** 429 answers, real and injected. */
  rateLimited: number;
  /** GET /v1/export answered 200 with a fresh export. */
  exports: number;
  /** The raw Authorization header values received, in order (for leak tests). */
  authorizationHeaders: string[];
}

export interface ServerConfig {
  data: SandboxData;
  keys: readonly KeyRecord[];
  rateLimit: number;
  exportIntervalSeconds: number;
  seed: number;
  now: () => number;
  faults: FaultOptions;
  /** The alt variant's rewriting of bodies and ids, when the sandbox plays a second implementation. */
  variant?: AltVariant | undefined;
  /** Serve https with this PEM key and certificate (chain); none: plain http. */
  tls?: { key: string | Buffer; cert: string | Buffer } | undefined;
  /** What the export leaves out. */
  exportLeavesOut: ReadonlySet<ExportCollection>;
  /** How the export is dressed (the alt variant's ids, an export's own entry ids). */
  exportDress: ExportDress;
  statsGeneratedAt: boolean;
  /** What the admin routes (admin.ts) change. */
  mutations: SandboxMutations;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const EXPOSED_HEADERS = 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After';

export function emptyCounters(): SandboxCounters {
  return { requests: 0, byPath: {}, byStatus: {}, rateLimited: 0, exports: 0, authorizationHeaders: [] };
}

export class SandboxServer {
  readonly http: Server;
  readonly counters = emptyCounters();
  private faultOptions: FaultOptions;
  /** Rank of the next request faults apply to. */
  private faultRank = 0;
  private readonly limiter: RateLimiter;
  private readonly keysByValue: ReadonlyMap<string, KeyRecord>;
  private readonly pending = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  private closed = false;
  /** Called before each authorised request is answered (a test's hook: a change between two pages). */
  beforeRoute: ((route: string, query: URLSearchParams) => void) | undefined;

  constructor(private readonly config: ServerConfig) {
    this.faultOptions = config.faults;
    this.limiter = new RateLimiter(config.rateLimit);
    this.keysByValue = new Map(config.keys.map((key) => [key.key, key]));
    const onRequest = (req: IncomingMessage, res: ServerResponse) => {
      res.on('error', () => {}); // a client that went away mid-response is not the server's problem
      this.handle(req, res).catch((error: unknown) => this.fail(res, error));
    };
    // https.Server has the same request/listen/close interface as http.Server (it is a tls.Server underneath).
    this.http = config.tls
      ? (createTlsServer({ keepAlive: true, key: config.tls.key, cert: config.tls.cert }, onRequest) as unknown as Server)
      : createServer({ keepAlive: true }, onRequest);
  }

  get faults(): FaultOptions {
    return this.faultOptions;
  }

  /** New fault options; fates count again from the first request. */
  set faults(options: FaultOptions) {
    this.faultOptions = options ?? {};
    this.faultRank = 0;
  }

  resetCounters(): void {
    const counters = this.counters;
    counters.requests = 0;
    counters.rateLimited = 0;
    counters.exports = 0;
    for (const key of Object.keys(counters.byPath)) delete counters.byPath[key];
    for (const key of Object.keys(counters.byStatus)) delete counters.byStatus[key];
    counters.authorizationHeaders.length = 0;
  }

  listen(port: number, host: string): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(port, host, () => {
        this.http.off('error', reject);
        resolve(this.http.address() as AddressInfo);
      });
    });
  }

  /** Stops listening, drops every connection (keep-alive ones and stalled requests too) and resolves when closed. */
  close(): Promise<void> {
    this.closed = true;
    for (const wait of this.pending) {
      clearTimeout(wait.timer);
      wait.resolve();
    }
    this.pending.clear();
    return new Promise((resolve) => {
      this.http.close(() => resolve());
      this.http.closeAllConnections();
    });
  }

  private delay(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wait = {
        timer: setTimeout(() => {
          this.pending.delete(wait);
          resolve();
        }, ms),
        resolve,
      };
      this.pending.add(wait);
    });
  }

  private bucketOf(identity: KeyRecord | HttpError, req: IncomingMessage): string {
    return identity instanceof HttpError ? `address:${req.socket.remoteAddress ?? 'unknown'}` : `account:${identity.account}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    } catch {
      url = new URL('http://sandbox.invalid/');
    }
    const pathname = url.pathname;
    // The admin routes change the data by hand: outside the API, its counters, budget and faults.
    if (pathname === ADMIN_PREFIX || pathname.startsWith(`${ADMIN_PREFIX}/`)) return this.admin(req, res, pathname, url.searchParams);
    const counters = this.counters;
    counters.requests += 1;
    counters.byPath[pathname] = (counters.byPath[pathname] ?? 0) + 1;
    const header = req.headers.authorization;
    if (header !== undefined) counters.authorizationHeaders.push(header);
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    res.setHeader('Cache-Control', 'no-store');

    if (req.method === 'OPTIONS') {
      const now = this.config.now();
      this.setBudgetHeaders(res, this.limiter.peek(this.bucketOf(authenticate(header, this.keysByValue, now), req), now));
      res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', 'Authorization, Accept');
      res.setHeader('Access-Control-Max-Age', '600');
      this.writeHead(res, 204, { 'Content-Length': '0' });
      res.end();
      return;
    }

    // Faults come first, before any normal handling (but after counting).
    const faults = this.faultOptions;
    const faulty = faultsActive(faults) && faultsApply(faults, pathname);
    let fate: FaultFate = 'none';
    if (faulty) {
      fate = faultFate(faults, this.faultRank);
      this.faultRank += 1;
      if (faults.latencyMs) await this.delay(faults.latencyMs);
      if (fate === 'reset' || this.closed) {
        req.socket.destroy();
        return;
      }
      if (fate === 'stall') await this.delay(faults.stallMs ?? DEFAULT_STALL_MS);
      if (this.closed || res.destroyed) return;
      const injected = this.injectedResponse(fate, faults);
      if (injected || faults.htmlBody) {
        const now = this.config.now();
        this.setBudgetHeaders(res, this.limiter.peek(this.bucketOf(authenticate(header, this.keysByValue, now), req), now));
        if (injected) this.sendError(res, injected, false);
        else this.sendHtml(res);
        return;
      }
    }

    const now = this.config.now();
    const identity = authenticate(header, this.keysByValue, now);
    const budget = this.limiter.take(this.bucketOf(identity, req), now);
    this.setBudgetHeaders(res, budget);
    try {
      if (!budget.allowed) {
        throw rateLimited(`Rate limit of ${budget.limit} requests per minute exceeded; the budget starts over in ${budget.reset} s.`, budget.reset);
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        throw new HttpError(
          405,
          'request.method_not_allowed',
          `${req.method} is not allowed: the API is read-only and answers GET only.`,
          {},
          { Allow: 'GET, HEAD, OPTIONS' },
        );
      }
      if (identity instanceof HttpError) throw identity;
      const matched = matchRoute(pathname);
      if (!matched) throw notFound(`No endpoint GET ${pathname}.`);
      const { route } = matched;
      const ids = this.config.variant ? matched.ids.map((id) => this.config.variant!.idIn(id)) : matched.ids;
      if (route.scope !== null && !identity.scopes.includes(route.scope)) throw forbiddenScope(route.scope);
      const account = this.config.data.account(identity.account);
      this.beforeRoute?.(route.name, url.searchParams);
      if (faulty && route.name === 'library' && faults.addEntriesPerRequest) account.addEntries(faults.addEntriesPerRequest, now);
      const reply = route.handle({
        account,
        key: identity,
        query: url.searchParams,
        ids,
        now,
        budget,
        seed: this.config.seed,
        dataDay: this.config.data.dataDay,
        exportIntervalSeconds: this.config.exportIntervalSeconds,
        exportLeavesOut: this.config.exportLeavesOut,
        exportDress: this.config.exportDress,
        statsGeneratedAt: this.config.statsGeneratedAt,
        onExport: () => {
          counters.exports += 1;
        },
      });
      const variant = this.config.variant;
      await this.sendReply(res, variant && 'body' in reply ? { ...reply, body: variant.body(route.name, reply.body) } : reply, fate === 'truncate');
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      this.sendError(res, error, fate === 'truncate');
    }
  }

  private async admin(req: IncomingMessage, res: ServerResponse, pathname: string, query: URLSearchParams): Promise<void> {
    let status: number;
    let body: unknown;
    let headers: Record<string, string> = {};
    try {
      ({ status, body } = await adminReply(req, pathname, query, this.config.mutations));
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      ({ status, headers } = error);
      body = error.body();
    }
    const buffer = Buffer.from(JSON.stringify(body), 'utf8');
    res.writeHead(status, { ...headers, 'Content-Type': JSON_TYPE, 'Content-Length': buffer.length });
    res.end(buffer);
  }

  private injectedResponse(fate: FaultFate, faults: FaultOptions): HttpError | undefined {
    switch (fate) {
      case '429':
        return rateLimited('Injected fault: rate limited.', faults.retryAfter429 ?? 1);
      case '500':
        return new HttpError(500, 'server.internal_error', 'Injected fault: internal server error.');
      case '503':
        return new HttpError(503, 'server.unavailable', 'Injected fault: service unavailable.', {}, { 'Retry-After': '1' });
      default:
        return undefined;
    }
  }

  private setBudgetHeaders(res: ServerResponse, budget: BudgetState): void {
    res.setHeader('X-RateLimit-Limit', String(budget.limit));
    res.setHeader('X-RateLimit-Remaining', String(budget.remaining));
    res.setHeader('X-RateLimit-Reset', String(budget.reset));
  }

  private writeHead(res: ServerResponse, status: number, headers: Record<string, string | number>): void {
    const counters = this.counters;
    counters.byStatus[String(status)] = (counters.byStatus[String(status)] ?? 0) + 1;
    if (status === 429) counters.rateLimited += 1;
    res.writeHead(status, headers);
  }

  private sendError(res: ServerResponse, error: HttpError, truncate: boolean): void {
    this.sendJson(res, error.status, error.body(), error.headers, truncate);
  }

  private sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>, truncate: boolean): void {
    const buffer = Buffer.from(JSON.stringify(body), 'utf8');
    this.writeHead(res, status, { ...headers, 'Content-Type': JSON_TYPE, 'Content-Length': buffer.length });
    if (truncate) {
      // The promised length never arrives: half the body, then the connection drops.
      res.write(buffer.subarray(0, Math.floor(buffer.length / 2)), () => res.socket?.destroy());
      return;
    }
    res.end(buffer);
  }

  private sendHtml(res: ServerResponse): void {
    const buffer = Buffer.from(HTML_LOGIN_PAGE, 'utf8');
    this.writeHead(res, 200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': buffer.length });
    res.end(buffer);
  }

  private async sendReply(res: ServerResponse, reply: Reply, truncate: boolean): Promise<void> {
    if ('body' in reply) {
      this.sendJson(res, reply.status, reply.body, {}, truncate);
      return;
    }
    // Streamed (chunked): no Content-Length, as the size is not known up front.
    this.writeHead(res, reply.status, { 'Content-Type': JSON_TYPE });
    for (const chunk of reply.stream) {
      if (res.destroyed || this.closed) return;
      if (truncate) {
        res.write(chunk, () => res.socket?.destroy());
        return;
      }
      const flushed = res.write(chunk);
      if (!flushed) {
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done);
            res.off('close', done);
            resolve();
          };
          res.on('drain', done);
          res.on('close', done);
        });
      }
    }
    res.end();
  }

  /** A bug in the sandbox: answer 500 if still possible, rather than leave the client hanging. */
  private fail(res: ServerResponse, error: unknown): void {
    if (res.headersSent || res.destroyed) {
      res.destroy();
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    this.sendJson(res, 500, { code: 'server.internal_error', message: `Sandbox error: ${message}` }, {}, false);
  }
}
