#!/usr/bin/env bash
# The official MCP Inspector's strict schema check of lk mcp's tools (issue 61): `mcp-inspector --cli --strict
# --method tools/list` against lk mcp on a sandbox mirror, failing on any schema portability finding. The Inspector
# is installed for this check alone into a temporary folder (it is a large package, with a web UI lk's tests never
# use), never into the project: `bash scripts/inspector-strict.sh` after `npm run build`, on a Node with node:sqlite.
set -euo pipefail
work=$(mktemp -d)
trap 'kill "${sandbox_pid:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
npm install --prefix "$work/inspector" --no-save --no-audit --no-fund --loglevel=error '@modelcontextprotocol/inspector@^2.12' >/dev/null
node bin/lk.cjs sandbox --json --entries 200 --rate-limit 0 >"$work/sandbox.json" &
sandbox_pid=$!
for _ in $(seq 100); do node -e 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))' "$work/sandbox.json" 2>/dev/null && break; sleep 0.1; done
export LK_BASE_URL LK_API_KEY LK_CONFIG_DIR="$work/config" LK_CACHE_DIR="$work/cache" LK_DATA_DIR="$work/data"
LK_BASE_URL=$(node -p 'require(process.argv[1]).url' "$work/sandbox.json")
LK_API_KEY=$(node -p 'require(process.argv[1]).keys[0].key' "$work/sandbox.json")
node bin/lk.cjs sync -q --db "$work/mirror.db"
unset LK_API_KEY
"$work/inspector/node_modules/.bin/mcp-inspector" --cli --strict --format json "$(command -v node)" bin/lk.cjs mcp --db "$work/mirror.db" \
  --method tools/list >"$work/tools.json"
node -e '
const answer = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const tools = answer.result?.tools ?? [];
const findings = answer.schemaFindings ?? [];
if (tools.length === 0) { console.error("inspector: no tools listed"); process.exit(1); }
if (findings.length > 0) { console.error(JSON.stringify(findings, null, 2)); process.exit(1); }
console.log(`inspector --strict: ${tools.length} tools, 0 schema findings`);
' "$work/tools.json"
