import type { Command } from 'commander';
import { TOOL_NAMES, toolNames } from '../mcp/tool-names.js';
import type { Context } from '../context.js';
import { SilentExit, UsageError } from '../util/errors.js';
import { TEXT } from '../output/shape.js';
import { MCP_CLIENT_SETUP } from '../output/wording/mcp-setup.js';
import { VERSION } from '../util/version.js';
import { addCommand, defineCommand } from './define.js';
import { flag } from './flags.js';
import { mirrorPath } from './offline.js';
import { DB_FLAG } from './options.js';
import { mirrorOr, plus, PROFILE } from './uses.js';
import { parseFieldList } from '../output/formats/fields.js';
import { loadSqlite, nodeHasSqlite } from '../mirror/open.js';
import { fallbackTimeZone } from '../report/time-zone.js';
import { needsNewerNode } from '../util/newer-node.js';

/** lk mcp's server, with the MCP SDK and zod: its own file (dist/mcp.cjs), read when lk mcp runs, not for its --help. */
const mcpServer = () => import('../mcp/index.js');

/** `lk mcp`: the mirror served to an AI assistant over the Model Context Protocol; the server is src/mcp/. */
const mcpCommand = defineCommand({
  name: 'mcp',
  uses: mirrorOr('live', plus(PROFILE, 'timeout')),
  description: 'serve your library to an AI assistant: a read-only MCP server on stdio, answering from the mirror',
  output: TEXT,
  flags: {
    ...DB_FLAG,
    live: flag.toggle(
      '--live',
      'let get_entry, calendar and the stats summary ask the API, within the rate limit (default: the mirror only, no request)',
    ),
    tools: flag.text('--tools <names>', `serve only these tools, comma-separated (of ${TOOL_NAMES.join(', ')})`),
  },
  help: MCP_CLIENT_SETUP,
  examples: ['lk mcp', 'lk mcp --profile work --live', 'lk mcp --db ~/mirrors/lk.db', 'lk mcp --tools search,get_entry,stats'],
  async run(ctx, _out, options) {
    const tools = options.tools === undefined ? undefined : chosenTools(options.tools);
    if (!nodeHasSqlite()) return unserved(ctx);
    loadSqlite('lk mcp');
    const path = await mirrorPath(ctx, options.db);
    // The key is checked now, before a client connects: a bad one is an exit, not an error in every answer.
    const client = options.live ? await ctx.client() : undefined;
    const { serveMcp } = await mcpServer();
    ctx.io.info(
      `lk mcp: serving ${path} on stdio, read-only${client ? ', with API reads (--live)' : ''}${tools ? `, tools ${tools.join(', ')}` : ''}`,
    );
    await serveMcp({
      // The protocol's own streams, never the output session's (no pager, --jq or -o between the client and lk).
      stdin: ctx.io.stdin,
      stdout: ctx.io.stdout,
      version: VERSION,
      mirrorPath: path,
      now: ctx.now,
      timeoutSeconds: ctx.settings.timeoutSeconds(),
      fallbackTimeZone: fallbackTimeZone(ctx.env, (line) => ctx.io.warn(line)),
      live: client,
      tools,
      signal: ctx.signal,
      log: (line) => ctx.io.warn(line),
    });
  },
});

/**
 * On a Node without node:sqlite: the reason on stderr, and in every answer to the host (mcp/unserved.ts), which shows
 * those and hides stderr. Exit 1 once the host lets go.
 */
async function unserved(ctx: Context): Promise<never> {
  const reason = needsNewerNode('lk mcp');
  ctx.io.warn(`lk: ${reason}`);
  const { serveUnserved } = await mcpServer();
  await serveUnserved({ stdin: ctx.io.stdin, stdout: ctx.io.stdout, reason, signal: ctx.signal });
  throw new SilentExit(1);
}

/** --tools search,get_entry: known names only (exit 2 naming the first other one), each once. */
function chosenTools(list: string): string[] {
  // A comma list as --fields takes one: trimmed, empty names dropped.
  const names = [...new Set(parseFieldList(list))];
  if (names.length === 0) throw new UsageError('--tools needs at least one tool name', `Tools: ${TOOL_NAMES.join(', ')}.`);
  const known = toolNames();
  const unknown = names.find((name) => !known.includes(name));
  if (unknown !== undefined) throw new UsageError(`--tools: no tool named ${unknown}`, `Tools: ${known.join(', ')}.`);
  return names;
}

export function registerMcp(program: Command): void {
  addCommand(program, mcpCommand);
}
