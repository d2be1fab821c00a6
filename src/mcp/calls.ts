import type { CallToolResult, Tool as ListedTool } from '@modelcontextprotocol/server';
import { argumentsProblem } from './arguments.js';
import type { McpMirror, ToolHost } from './mirror.js';
import { portableSchema } from './portable-schema.js';
import { continuation, CursorRefused, encodeCursor } from './paging.js';
import type { Tool } from './tool.js';

/**
 * A tool as tools/list shows it: its input and output as JSON Schema (2020-12, the protocol's dialect) every client
 * reads (portable-schema.ts), read-only in its annotations (lk never writes), open-world only where --live lets it
 * ask the API; the view it is shown in, where it has one (views.ts).
 */
export function listedTool(tool: Tool, host: ToolHost, mirror: McpMirror): ListedTool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: portableSchema(tool.input, 'input') as ListedTool['inputSchema'],
    outputSchema: portableSchema(tool.output, 'output') as ListedTool['outputSchema'],
    annotations: {
      title: tool.title,
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: tool.live === true && host.live !== undefined,
    },
    ...(tool.view ? { _meta: { ui: { resourceUri: tool.view(mirror) } } } : {}),
  };
}

/**
 * One call: its arguments checked (one line naming each bad one), a cursor continued, the tool run. Failures are
 * tool errors the assistant reads; a cancelled call is not answered (the SDK drops its answer).
 */
export async function callTool(
  tool: Tool,
  given: Record<string, unknown>,
  host: ToolHost,
  mirror: McpMirror,
  signal: AbortSignal,
): Promise<CallToolResult> {
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
    const structured = await tool.run(args, {
      host,
      mirror,
      signal,
      offset,
      cursorAt: (at) => encodeCursor({ tool: tool.name, args, offset: at }),
    });
    return { content: [{ type: 'text', text: JSON.stringify(structured) }, ...(tool.links?.(structured) ?? [])], structuredContent: structured };
  } catch (error) {
    if (signal.aborted) throw error;
    return toolError(error instanceof Error ? error.message : String(error));
  }
}

function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
