import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  path: string;
  headers: IncomingMessage['headers'];
}

export interface FakeApi {
  url: string;
  port: number;
  requests: SeenRequest[];
  close(): Promise<void>;
}

/**
 * A tiny real HTTP server for what the sandbox must never do: hostile titles, redirects, absurd bodies.
 * Each test gives the answer it needs; every request is recorded.
 */
export async function startFakeApi(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<FakeApi> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    requests.push({ path: req.url ?? '', headers: req.headers });
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A JSON answer with a plentiful rate-limit budget; `headers` add to or replace the usual ones. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'x-ratelimit-limit': '60',
    'x-ratelimit-remaining': '59',
    'x-ratelimit-reset': '30',
    ...headers,
  });
  res.end(text);
}

/** A library page holding the given entries. */
export function envelope(items: unknown[]): unknown {
  return { items, hasMore: false, total: items.length };
}
