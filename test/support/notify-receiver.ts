import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

/** One request a receiver took: what a notification service would see of lk's (or apprise's) POST. */
export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How the receiver answers one request (the nth, from 0): a status and headers; undefined is 200. */
export type Answer = (
  request: Received,
  nth: number,
) => { status: number; headers?: Record<string, string>; stall?: boolean; body?: string } | undefined;

/**
 * A notification service on loopback that speaks HTTP as ntfy, Apprise's json:// and form:// receivers do: every POST
 * is kept (`received`, only those answered 2xx in `taken`), and `answer` can refuse (500), rate-limit (429 with
 * Retry-After) or never answer (stall), as a real service may.
 */
export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  taken: Received[];
  answer: Answer;
  close(): Promise<void>;
}

/** `tls`: a key and certificate to serve https with (ntfys://, jsons://). */
export async function startReceiver(answer: Answer = () => undefined, tls?: { key: string; cert: string }): Promise<Receiver> {
  const received: Received[] = [];
  const taken: Received[] = [];
  const receiver: Receiver = { url: '', port: 0, received, taken, answer, close: async () => {} };
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const request: Received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      const nth = received.length;
      received.push(request);
      const reply = receiver.answer(request, nth) ?? { status: 200 };
      if (reply.stall) return; // never answered: a service that hangs (closed with the receiver)
      if (reply.status >= 200 && reply.status < 300) taken.push(request);
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.body ?? (reply.status < 300 ? '{"id":"ok"}' : `{"error":"refused with ${reply.status}"}`));
    });
  };
  const server = tls ? createHttpsServer(tls, handle) : createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `127.0.0.1:${receiver.port}`;
  receiver.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
