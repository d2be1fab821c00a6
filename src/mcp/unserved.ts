import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { LineTransport } from './transport.js';

/**
 * `lk mcp` on a Node it cannot serve from (before 22.13: no node:sqlite). A host hides a server's stderr and shows
 * only "connection closed" when it exits, so lk stays on the line and answers instead: `initialize`, `tools/list`
 * and any other request with a JSON-RPC error whose message is `reason`, a tool call with a tool error saying it
 * (what hosts show the user), `ping` as usual. It ends when the host closes stdin or the run's signal aborts.
 */

export interface Unserved {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  reason: string;
  signal?: AbortSignal | undefined;
}

/** JSON-RPC's "server error" range: the request was understood, and this server cannot serve it. */
const CANNOT_SERVE = -32000;

export async function serveUnserved({ stdin, stdout, reason, signal }: Unserved): Promise<void> {
  const transport = new LineTransport(stdin, stdout);
  transport.onmessage = (message) => {
    const request = message as { id?: string | number; method?: string };
    if (request.id === undefined || request.method === undefined) return; // a notification or an answer: nothing to say
    void transport.send(answer(request.id, request.method, reason));
  };
  const stop = () => void transport.close();
  signal?.addEventListener('abort', stop, { once: true });
  try {
    await transport.start();
    if (signal?.aborted) stop();
    await transport.ended;
  } finally {
    signal?.removeEventListener('abort', stop);
  }
}

function answer(id: string | number, method: string, reason: string): JSONRPCMessage {
  if (method === 'ping') return { jsonrpc: '2.0', id, result: {} };
  if (method === 'tools/call') return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: reason }], isError: true } };
  return { jsonrpc: '2.0', id, error: { code: CANNOT_SERVE, message: reason } } as unknown as JSONRPCMessage;
}
