import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { ToolHost } from './mirror.js';
import { registerTools } from './tools.js';

/**
 * `lk mcp`: a Model Context Protocol server on stdio, for an assistant that starts lk as its subprocess. stdout carries
 * the protocol's messages and nothing else; the run ends when the client closes stdin. Built into a file of its own
 * (dist/mcp.cjs, with the SDK and zod) that no other run reads.
 */

export interface McpServe extends ToolHost {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  version: string;
  /** A line on stderr (never the key). */
  log(line: string): void;
}

export async function serveMcp(serve: McpServe): Promise<void> {
  const server = new McpServer(
    { name: 'lk', version: serve.version },
    { instructions: 'Read-only access to one account of a media-tracking service: its library, history, stats and calendar, from a local mirror.' },
  );
  registerTools(server, serve);
  const transport = new StdioServerTransport(serve.stdin as never, serve.stdout as never);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  transport.onerror = (error) => serve.log(`lk mcp: ${error.message}`);
  // The SDK's transport does not watch for the end of stdin: the client closing it is the end of the session.
  const stop = () => void server.close();
  serve.stdin.once('end', stop);
  serve.stdin.once('close', stop);
  await server.connect(transport);
  await closed;
}
