import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson, startFakeApi, type FakeApi } from './fake-api.js';

/**
 * A server that answers wrongly on purpose (issue 18): wrong shapes, pages that repeat, absurd headers, bodies that
 * trickle or never end. Each test picks the mode of each path. Everything it does is bounded: at most
 * `maxRequests` answers (then 500s, and `exhausted` says the client did not stop by itself), and every streamed body
 * has a fixed number of chunks and stops when the client goes away.
 */

export type Mode = (req: IncomingMessage, res: ServerResponse, url: URL, server: HostileServer) => void;

export interface HostileServer extends FakeApi {
  /** Requests per path (without the query). */
  count(path: string): number;
  /** More requests came than the test allowed: the client kept asking. */
  readonly exhausted: boolean;
  /** Bytes of streamed bodies actually written before each one ended. */
  readonly streamed: number[];
}

export interface HostileOptions {
  /** Answers before the server gives up with 500s. */
  maxRequests?: number;
}

/** The GET /v1/me answer every mode shares unless it names /v1/me itself. */
export const ME = {
  account: { id: 'acc-1', username: 'mallory' },
  key: { scopes: ['library:read', 'export:read', 'calendar:read'] },
  rateLimit: { limit: 60 },
};

export async function startHostileServer(routes: Record<string, Mode>, options: HostileOptions = {}): Promise<HostileServer> {
  const maxRequests = options.maxRequests ?? 200;
  const counts = new Map<string, number>();
  const streamed: number[] = [];
  let exhausted = false;
  let total = 0;
  const fake = await startFakeApi((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    counts.set(url.pathname, (counts.get(url.pathname) ?? 0) + 1);
    total += 1;
    if (total > maxRequests) {
      exhausted = true;
      sendJson(res, 500, { code: 'hostile.exhausted', message: 'the hostile server stopped answering' });
      return;
    }
    const mode = routes[url.pathname] ?? (url.pathname === '/v1/me' ? json(ME) : undefined);
    if (!mode) {
      sendJson(res, 404, { code: 'not_found' });
      return;
    }
    mode(req, res, url, server);
  });
  // Referred to by the handler above, which runs only once requests arrive.
  const server: HostileServer = Object.assign(fake, {
    count: (path: string) => counts.get(path) ?? 0,
    get exhausted() {
      return exhausted;
    },
    streamed,
  });
  return server;
}

/** The same answer to every request. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Mode {
  return (_req, res) => sendJson(res, status, body, headers);
}

/** An answer per page number (`page` from the query, 1 when absent) and the limit asked for. */
export function pages(answer: (page: number, limit: number) => unknown): Mode {
  return (req, res, url, server) => {
    const page = Number(url.searchParams.get('page') ?? '1');
    const limit = Number(url.searchParams.get('limit') ?? '20');
    json(answer(page, limit))(req, res, url, server);
  };
}

/** `count` library entries with ids from `from`. */
export function entries(from: number, count: number): Array<{ id: string; work: { title: string }; status: string }> {
  return Array.from({ length: Math.max(0, count) }, (_, i) => ({ id: `e${from + i}`, work: { title: `Title ${from + i}` }, status: 'PLANNED' }));
}

/** A listing of `total` entries served `size` at a time whatever limit is asked (a server capping its page size). */
export function listing(total: number, cap = 100): Mode {
  return pages((page, limit) => {
    const size = Math.min(limit, cap);
    const start = (page - 1) * size;
    return { items: entries(start, Math.min(size, total - start)), hasMore: start + size < total, total };
  });
}

/**
 * A JSON body sent `chunkBytes` at a time every `everyMs`, at most `chunks` chunks (then the body ends, still not
 * JSON-complete unless `tail` closes it), headers at once. Stops when the client hangs up; records what it wrote.
 */
export function trickle(options: {
  chunkBytes: number;
  everyMs: number;
  chunks: number;
  head?: string;
  tail?: string;
  contentLength?: boolean;
}): Mode {
  return (req, res, _url, server) => {
    const head = options.head ?? '{"padding":"';
    const tail = options.tail ?? '"}';
    const headers: Record<string, string | number> = {
      'content-type': 'application/json',
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '59',
      'x-ratelimit-reset': '30',
    };
    if (options.contentLength) headers['content-length'] = head.length + options.chunkBytes * options.chunks + tail.length;
    res.writeHead(200, headers);
    res.write(head);
    let written = head.length;
    let sent = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearInterval(timer);
      server.streamed.push(written);
    };
    const timer = setInterval(() => {
      if (res.destroyed || sent >= options.chunks) {
        if (!res.destroyed) res.end(tail);
        finish();
        return;
      }
      res.write('x'.repeat(options.chunkBytes));
      written += options.chunkBytes;
      sent += 1;
    }, options.everyMs);
    res.on('close', finish);
  };
}

/** No answer for `ms` (a server gone quiet), then a 503: bounded in time like everything here. */
export function silentFor(ms: number): Mode {
  return (req, res, url, server) => {
    const timer = setTimeout(() => json({ code: 'late' }, 503)(req, res, url, server), ms);
    res.on('close', () => clearTimeout(timer));
  };
}
