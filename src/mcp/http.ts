import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { McpMirror, type ToolHost } from './mirror.js';
import { makeServer } from './server.js';
import { allTools } from './tools.js';

/**
 * `lk serve --mcp`: lk mcp's server (server.ts, the same factory as on stdio) over Streamable HTTP at POST /mcp. The
 * SDK's handler serves both eras per request, statelessly: 2026-07-28 requests carry their own envelope, a 2025 client
 * gets a fresh instance for each of its requests. lk serve checks the token and the request's Host and Origin first
 * (serve/http.ts); this only answers.
 */

export interface McpHttpServe extends ToolHost {
  version: string;
  /** A line on stderr (never the token or the key). */
  log(line: string): void;
}

export interface McpHttp {
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
  close(): Promise<void>;
}

export function mcpOverHttp(serve: McpHttpServe): McpHttp {
  const mirror = new McpMirror(serve);
  const failed = (error: Error) => serve.log(`lk: serve: /mcp: ${error.message.replace(/\s+/g, ' ')}`);
  const handler = createMcpHandler(() => makeServer({ host: serve, mirror, tools: allTools(), version: serve.version, failed }), { onerror: failed });
  const node = toNodeHandler(handler, { onerror: failed });
  return {
    handle: (request, response) => node(request, response),
    async close() {
      await handler.close();
      mirror.close();
    },
  };
}
