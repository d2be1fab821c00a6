import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { McpMirror, type ToolHost } from './mirror.js';
import { makeServer } from './server.js';
import { LineTransport } from './transport.js';
import { allTools } from './tools.js';

export { serveUnserved } from './unserved.js';

/**
 * `lk mcp`: a Model Context Protocol server on stdio, for an assistant that starts lk as its subprocess. stdout carries
 * the protocol's messages and nothing else. The run ends when the client closes stdin or the run's signal aborts
 * (SIGTERM, SIGINT, SIGHUP): no answer after that, and every query process it started ended at once. Built into a
 * file of its own (dist/mcp.cjs, with the SDK and zod) that no other run reads.
 */

export interface McpServe extends ToolHost {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  version: string;
  /** Only these tools (lk mcp --tools); all of them when undefined. */
  tools?: readonly string[] | undefined;
  /** Aborted when lk is told to stop (a signal). */
  signal?: AbortSignal | undefined;
  /** A line on stderr (never the key). */
  log(line: string): void;
}

export async function serveMcp(serve: McpServe): Promise<void> {
  const mirror = new McpMirror(serve);
  const tools = allTools().filter((tool) => serve.tools === undefined || serve.tools.includes(tool.name));
  const transport = new LineTransport(serve.stdin, serve.stdout);
  // The SDK's stdio entry picks the era from the client's first message (server/discover or initialize) and keeps
  // one instance for the connection; lk's own transport frames the lines (transport.ts).
  const failed = (error: Error) => serve.log(`lk mcp: ${error.message.replace(/\s+/g, ' ')}`);
  const connection = serveStdio(() => makeServer({ host: serve, mirror, tools, version: serve.version, failed }), { transport, onerror: failed });
  const stop = () => {
    mirror.close();
    void connection.close();
  };
  serve.signal?.addEventListener('abort', stop, { once: true });
  try {
    await transport.ended;
  } finally {
    serve.signal?.removeEventListener('abort', stop);
    mirror.close();
  }
}

export { mcpOverHttp, type McpHttp } from './http.js';
