/** How to add `lk mcp` to an MCP client: the text of `lk mcp --help` (and of docs/mcp.md). */
export const MCP_CLIENT_SETUP = `
Add it to an MCP client's configuration; the client starts lk itself.

Claude Desktop (claude_desktop_config.json):
  {
    "mcpServers": {
      "lk": { "command": "lk", "args": ["mcp"] }
    }
  }

VS Code (.vscode/mcp.json, or "MCP: Open User Configuration"):
  {
    "servers": {
      "lk": { "type": "stdio", "command": "lk", "args": ["mcp"] }
    }
  }

Serve fewer tools (many hosts stop near 40 across all servers) with --tools:
  "args": ["mcp", "--tools", "search,get_entry,stats"]

Add "--profile", "NAME" to args for another profile's mirror, "--live" to let
get_entry, calendar and the stats summary ask the API. A host passes few
environment variables: with --live, name the key's file (and your time zone):
  "env": {
    "LK_API_KEY_FILE": "/home/you/.config/lk/key",
    "TZ": "Europe/Paris"
  }
Keep the mirror fresh with lk sync (from cron: see lk sync --help). The assistant sees only what it
asks for; the key is never in an answer or a log line. Logs go to stderr, the
protocol to stdout. Resources (lk://status, lk://entry/{id}, lk://report/{year},
lk://schema) and prompts (tonight, catch-up, year-in-review, recommend) come
with the tools, and views of the status and the year (ui://lk/status,
ui://lk/year/{year}) for hosts with the MCP Apps extension; lk serve --mcp
--token-file FILE serves the same over HTTP, to whoever has the token.
`;
