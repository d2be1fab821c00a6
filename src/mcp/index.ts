import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool as ListedTool,
} from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { argumentsProblem } from './arguments.js';
import { McpMirror, type ToolHost } from './mirror.js';
import { continuation, CursorRefused, encodeCursor } from './paging.js';
import { LineTransport } from './transport.js';
import type { Tool } from './tool.js';
import { TOOLS } from './tools.js';

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
  const tools = TOOLS.filter((tool) => serve.tools === undefined || serve.tools.includes(tool.name));
  const server = new Server(
    { name: 'lk', version: serve.version },
    {
      capabilities: { tools: {} },
      instructions: 'Read-only access to one account of a media-tracking service: its library, history, stats and calendar, from a local mirror.',
    },
  );
  const listed = tools.map((tool) => listedTool(tool, serve));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const tool = tools.find((candidate) => candidate.name === request.params.name);
    if (!tool)
      throw new McpError(ErrorCode.InvalidParams, `no tool ${request.params.name} here; this server has ${tools.map((t) => t.name).join(', ')}`);
    return callTool(tool, request.params.arguments ?? {}, serve, mirror, extra.signal);
  });
  server.onerror = (error) => serve.log(`lk mcp: ${error.message.replace(/\s+/g, ' ')}`);
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  const stop = () => {
    mirror.close();
    void server.close();
  };
  serve.signal?.addEventListener('abort', stop, { once: true });
  try {
    await server.connect(new LineTransport(serve.stdin, serve.stdout));
    await closed;
  } finally {
    serve.signal?.removeEventListener('abort', stop);
    mirror.close();
  }
}

function listedTool(tool: Tool, host: ToolHost): ListedTool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: z.toJSONSchema(tool.input, { io: 'input', target: 'draft-7' }) as ListedTool['inputSchema'],
    outputSchema: z.toJSONSchema(tool.output, { io: 'output', target: 'draft-7' }) as ListedTool['outputSchema'],
    annotations: { title: tool.title, readOnlyHint: true, openWorldHint: tool.live === true && host.live !== undefined },
  };
}

/**
 * One call: its arguments checked (one line naming each bad one), a cursor continued, the tool run. Failures are
 * tool errors the assistant reads; a cancelled call is not answered (the SDK drops its answer).
 */
async function callTool(tool: Tool, given: Record<string, unknown>, host: ToolHost, mirror: McpMirror, signal: AbortSignal): Promise<CallToolResult> {
  let offset = 0;
  let raw = given;
  if (tool.paged && given.cursor !== undefined) {
    try {
      ({ args: raw, offset } = continuation(tool.name, given));
    } catch (error) {
      if (error instanceof CursorRefused) return toolError(error.message);
      throw error;
    }
  }
  const parsed = tool.input.safeParse(raw, { reportInput: true });
  if (!parsed.success) return toolError(argumentsProblem(tool.name, parsed.error));
  const args = parsed.data;
  try {
    const listingArgs = args;
    const structured = await tool.run(args, {
      host,
      mirror,
      signal,
      offset,
      cursorAt: (at) => encodeCursor({ tool: tool.name, args: listingArgs, offset: at }),
    });
    return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
  } catch (error) {
    if (signal.aborted) throw error;
    return toolError(error instanceof Error ? error.message : String(error));
  }
}

function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
