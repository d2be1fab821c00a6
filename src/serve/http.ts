import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ExitCode, LkError } from '../util/errors.js';
import { BadQuery, PAGE_POLICY } from './documents.js';
import { foreignToMcp, HOST_FORM, isOwnHost } from './own-name.js';
import type { Served } from './store.js';

/**
 * The HTTP side of `lk serve`, on node:http: six documents and an index, read-only, so a framework would bring
 * routing and middleware this does not need, and dependencies to audit in a program that faces a network. Every
 * path is matched whole against a fixed list, as the request line spells it: nothing is decoded, nothing reaches
 * the file system.
 */

export interface HttpOptions {
  host: string;
  port: number;
  /** On loopback: answer only requests that name it (own-name.ts); any other Host gets 421 before anything else. */
  ownNamesOnly: boolean;
  /** Required as `?token=` or `Authorization: Bearer` on every request when set. */
  token: string | undefined;
  /** The document at a path for the request's query: undefined is 404, a BadQuery 400. */
  document(path: string, query: URLSearchParams): Promise<Served | BadQuery | undefined>;
  index(facts: { authority: string; query: string }): Promise<string>;
  /** lk serve --mcp: the MCP server at /mcp (src/mcp/http.ts), answered once the token and the names are checked. */
  mcp?: ((request: IncomingMessage, response: ServerResponse) => Promise<void>) | undefined;
  /** A connection that sends nothing for this long is closed (default 30 s). */
  idleTimeoutMs?: number;
  /** One line on stderr (an error while answering; never the token). */
  log(line: string): void;
}

export interface Listening {
  /** `http://HOST:PORT/` */
  url: string;
  close(): Promise<void>;
}

const COMMON_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
};

export async function listen(options: HttpOptions): Promise<Listening> {
  const idle = options.idleTimeoutMs ?? 30_000;
  const server = createServer({ requestTimeout: idle, headersTimeout: idle, keepAliveTimeout: 5_000 }, (request, response) => {
    answer(request, response, options).catch((error: unknown) => {
      options.log(`lk: serve: ${request.method} ${pathOf(request.url ?? '')}: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) reply(response, 500, 'internal error\n');
      else response.destroy();
    });
  });
  // A client that connects and says nothing (or stops halfway) is dropped once this passes without a byte.
  server.setTimeout(idle);
  await new Promise<void>((resolve, reject) => {
    const refused = (error: NodeJS.ErrnoException) => reject(listenError(error, options));
    server.once('error', refused);
    server.listen(options.port, options.host, () => {
      server.off('error', refused);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { url: `http://${host}:${address.port}/`, close: () => close(server) };
}

function listenError(error: NodeJS.ErrnoException, options: HttpOptions): Error {
  const where = `${options.host.includes(':') ? `[${options.host}]` : options.host}:${options.port}`;
  const why = {
    EADDRINUSE: ['the port is in use', 'Another lk serve? Choose another --port, or --port 0 for a free one.'],
    EACCES: ['not allowed', 'Ports below 1024 need privileges: choose --port 1024 or above.'],
    EADDRNOTAVAIL: ['no such address on this machine', 'Check --host: 127.0.0.1, 0.0.0.0 or one of this machine’s addresses.'],
  }[error.code ?? ''] ?? [error.message, undefined];
  return new LkError(`cannot listen on ${where}: ${why[0]}`, ExitCode.failure, why[1]);
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

async function answer(request: IncomingMessage, response: ServerResponse, options: HttpOptions): Promise<void> {
  const target = request.url ?? '';
  if (options.mcp && pathOf(target) === '/mcp') return answerMcp(request, response, options, options.mcp);
  // First of all, on every route and method: a request for another name is not read any further.
  if (options.ownNamesOnly && !isOwnHost(request.headers.host)) {
    response.setHeader('connection', 'close');
    return reply(response, 421, 'lk serve answers only 127.0.0.1, localhost and [::1]\n');
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.setHeader('allow', 'GET, HEAD');
    return reply(response, 405, 'only GET and HEAD\n');
  }
  // Origin form only: an absolute URL (GET http://elsewhere/…) or an authority names nothing served here.
  if (!target.startsWith('/') || target.startsWith('//')) return reply(response, 404, 'not found\n');
  const path = pathOf(target);
  const query = target.slice(path.length + 1);
  const queryToken = new URLSearchParams(query).get('token');
  if (options.token !== undefined && !authorised(request, queryToken, options.token)) {
    response.setHeader('www-authenticate', 'Bearer');
    return reply(response, 401, 'a token is required: ?token=… or Authorization: Bearer …\n');
  }
  if (path === '/') {
    const carried = options.token !== undefined && queryToken !== null ? `?token=${encodeURIComponent(queryToken)}` : '';
    const page = await options.index({ authority: authorityOf(request, options), query: carried });
    response.setHeader('content-security-policy', PAGE_POLICY);
    response.setHeader('cache-control', 'no-store');
    return reply(response, 200, page, 'text/html; charset=utf-8', request.method === 'HEAD');
  }
  const served = await options.document(path, new URLSearchParams(query));
  if (!served) return reply(response, 404, 'not found\n');
  if (served instanceof BadQuery) return reply(response, 400, `${served.reason}\n`);
  await send(request, response, served);
}

/**
 * POST /mcp: refused (403) when its Origin names another server than this one, or on loopback its Host (DNS
 * rebinding: own-name.ts foreignToMcp); then the token, which lk serve --mcp always has (commands/serve.ts): /mcp is
 * the owner's surface, with the notes and private reviews; then the MCP server answers.
 */
async function answerMcp(
  request: IncomingMessage,
  response: ServerResponse,
  options: HttpOptions,
  mcp: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
): Promise<void> {
  const local = { address: request.socket.localAddress ?? options.host, port: request.socket.localPort ?? options.port };
  const foreign = foreignToMcp({ host: request.headers.host, origin: request.headers.origin }, local, options.ownNamesOnly);
  if (foreign !== undefined) {
    response.setHeader('connection', 'close');
    return reply(response, 403, `${foreign}\n`);
  }
  const queryToken = new URLSearchParams((request.url ?? '').slice('/mcp'.length + 1)).get('token');
  // Never served without a token: lk serve refuses --mcp without --token-file, and this holds whoever calls listen().
  if (options.token === undefined || !authorised(request, queryToken, options.token)) {
    response.setHeader('www-authenticate', 'Bearer');
    return reply(response, 401, 'a token is required: ?token=… or Authorization: Bearer …\n');
  }
  await mcp(request, response);
}

async function send(request: IncomingMessage, response: ServerResponse, served: Served): Promise<void> {
  const zip = acceptsGzip(request.headers['accept-encoding']);
  const etag = zip ? `${served.etag.slice(0, -1)}-gz"` : served.etag;
  for (const [name, value] of Object.entries({ ...COMMON_HEADERS, ...served.headers })) response.setHeader(name, value);
  response.setHeader('etag', etag);
  response.setHeader('last-modified', new Date(served.lastModified).toUTCString());
  response.setHeader('cache-control', 'no-cache');
  response.setHeader('vary', 'Accept-Encoding');
  if (notModified(request, served)) {
    response.writeHead(304);
    response.end();
    return;
  }
  const body = zip ? await served.gzipped() : served.body;
  response.setHeader('content-type', served.type);
  response.setHeader('content-length', body.length);
  if (zip) response.setHeader('content-encoding', 'gzip');
  response.writeHead(200);
  response.end(request.method === 'HEAD' ? undefined : body);
}

/** If-None-Match wins over If-Modified-Since (RFC 9110 §13.2.2); either form of the tag (plain or gzip) matches. */
function notModified(request: IncomingMessage, served: Served): boolean {
  const tags = request.headers['if-none-match'];
  if (tags !== undefined) {
    const wanted = served.etag.slice(1, -1);
    return tags.split(',').some((tag) => {
      const bare = tag.trim().replace(/^W\//, '').replace(/^"|"$/g, '');
      return bare === '*' || bare === wanted || bare === `${wanted}-gz`;
    });
  }
  const since = Date.parse(request.headers['if-modified-since'] ?? '');
  return !Number.isNaN(since) && served.lastModified <= since;
}

function acceptsGzip(header: string | undefined): boolean {
  return (header ?? '').split(',').some((part) => {
    const [coding, ...parameters] = part.trim().toLowerCase().split(';');
    const q = parameters.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((value) => value !== undefined);
    return coding === 'gzip' && (q === undefined || Number(q) > 0);
  });
}

function authorised(request: IncomingMessage, queryToken: string | null, token: string): boolean {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
  const given = bearer ?? queryToken;
  return given !== undefined && given !== null && sameSecret(given, token);
}

/** Compared in constant time: digests of equal length, so neither the length nor a prefix shows in the timing. */
function sameSecret(given: string, token: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(token));
}

/** The Host the client used when it is a plain host[:port], for the index's webcal:// link; else the server's own. */
function authorityOf(request: IncomingMessage, options: HttpOptions): string {
  const host = request.headers.host ?? '';
  if (HOST_FORM.test(host)) return host;
  const address = request.socket.localAddress ?? options.host;
  return `${address.includes(':') ? `[${address}]` : address}:${request.socket.localPort ?? options.port}`;
}

function pathOf(target: string): string {
  const mark = target.indexOf('?');
  return mark === -1 ? target : target.slice(0, mark);
}

function reply(response: ServerResponse, status: number, text: string, type = 'text/plain; charset=utf-8', head = false): void {
  for (const [name, value] of Object.entries(COMMON_HEADERS)) response.setHeader(name, value);
  const body = Buffer.from(text, 'utf8');
  response.writeHead(status, { 'content-type': type, 'content-length': body.length });
  response.end(head ? undefined : body);
}
