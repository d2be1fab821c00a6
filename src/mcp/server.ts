import { ProtocolError, ProtocolErrorCode, Server, type Implementation, type Transport } from '@modelcontextprotocol/server';
import { callTool, listedTool } from './calls.js';
import { complete } from './completion.js';
import type { McpMirror, ToolHost } from './mirror.js';
import { getPrompt, PROMPTS } from './prompts.js';
import { readResource, RESOURCES, TEMPLATES } from './resources.js';
import type { Tool } from './tool.js';
import { UI_EXTENSION } from './views.js';

/**
 * lk's MCP server, written once for both transports (stdio for lk mcp, Streamable HTTP for lk serve --mcp) and both
 * eras of the protocol: the SDK's serving entries (serveStdio, createMcpHandler) make an instance from this factory per
 * connection or request and answer 2026-07-28 (server/discover, no handshake) and 2025-11-25 (initialize) alike.
 * The low-level Server, not McpServer: lk checks a call's arguments itself (one line naming each bad one, cursors
 * continued) and answers resources and completions from its own readings.
 */

/** The revisions lk answers: server/discover names both (the SDK's own answer names the modern ones alone). */
export const SUPPORTED_VERSIONS = ['2026-07-28', '2025-11-25'];

const INSTRUCTIONS =
  'Read-only access to one account of a media-tracking service: its library, history, stats and calendar, from a local mirror. Resources: lk://status, lk://entry/{id}, lk://report/{year}, lk://schema.';

/** A book under a play button: lk's icon, small enough to travel in every answer's serverInfo. */
const ICON = `data:image/svg+xml;base64,${Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="#2d5b8c"/><path d="M14 16h16a4 4 0 0 1 4 4v30a3 3 0 0 0-3-3H14zM50 16H38a4 4 0 0 0-4 4v30a3 3 0 0 1 3-3h13z" fill="#fff"/><path d="M39 25l8 5-8 5z" fill="#2d5b8c"/></svg>',
).toString('base64')}`;

export interface McpSetup {
  host: ToolHost;
  mirror: McpMirror;
  /** The tools served (lk mcp --tools may name fewer). */
  tools: readonly Tool[];
  version: string;
  /** What went wrong while answering, said on stderr (never the key): the transport's entry words the line. */
  failed(error: Error): void;
}

export function serverInfo(version: string): Implementation {
  return {
    name: 'lk',
    title: 'lk: your media library',
    version,
    description: 'Your media-tracking library (watched, played, read, listened), read-only, from the mirror lk sync keeps.',
    icons: [{ src: ICON, mimeType: 'image/svg+xml', sizes: ['any'] }],
  };
}

/** A server's instance for one connection or request, its answers those of the setup shared by every instance. */
export function makeServer(setup: McpSetup): Server {
  const server = new LkServer(serverInfo(setup.version), {
    // The MCP Apps extension, as SEP-1724 advertises an extension: its identifier under capabilities.extensions.
    capabilities: { tools: {}, resources: {}, prompts: {}, completions: {}, extensions: { [UI_EXTENSION]: {} } },
    instructions: INSTRUCTIONS,
  });
  const listed = setup.tools.map((tool) => listedTool(tool, setup.host, setup.mirror));
  server.setRequestHandler('tools/list', () => ({ tools: listed }));
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const tool = setup.tools.find((candidate) => candidate.name === request.params.name);
    if (!tool)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `no tool ${request.params.name} here; this server has ${setup.tools.map((t) => t.name).join(', ')}`,
      );
    const result = await callTool(tool, request.params.arguments ?? {}, setup.host, setup.mirror, ctx.mcpReq.signal);
    return server.projectCallToolResult(result, listed.find((shown) => shown.name === tool.name)?.outputSchema);
  });
  server.setRequestHandler('resources/list', () => ({ resources: RESOURCES }));
  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: TEMPLATES }));
  server.setRequestHandler('resources/read', (request) => readResource(request.params.uri, setup.host, setup.mirror));
  server.setRequestHandler('prompts/list', () => ({ prompts: PROMPTS }));
  server.setRequestHandler('prompts/get', (request) => getPrompt(request.params.name, request.params.arguments ?? {}, setup.host, setup.mirror));
  server.setRequestHandler('completion/complete', (request) => complete(request.params, setup.mirror));
  server.onerror = setup.failed;
  return server;
}

class LkServer extends Server {
  /**
   * The serving entries install the SDK's server/discover answer before connecting an instance of the modern era;
   * lk's, installed after it, names the 2025 revision it serves as well, so a client sees both in supportedVersions.
   */
  override async connect(transport: Transport): Promise<void> {
    this.setRequestHandler('server/discover', () => ({
      supportedVersions: SUPPORTED_VERSIONS,
      capabilities: this.getCapabilities(),
      instructions: INSTRUCTIONS,
    }));
    await super.connect(transport);
  }
}
