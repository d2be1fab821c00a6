// How long a host waits to connect to lk mcp: the MCP v2 client's connect() (spawn, era negotiation, first answer)
// then tools/list, in `auto` mode (it probes server/discover; a server that answers it is served on 2026-07-28 with
// no fallback) and in `legacy` mode (the 2025 initialize handshake), interleaved, median of the runs. The era each
// connect settled on is printed beside it.
//
//   node bench/mcp-connect.mjs            # alone (npm run build first; Node 22.13+ for node:sqlite)
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { performance } from 'node:perf_hooks';
import { lkBin, median, ms, row } from './lib.mjs';
import { onSyncedMirror } from './mirror.mjs';

export async function mcpConnect({ runs = 9, entries = 50 } = {}) {
  return onSyncedMirror(entries, async ({ node, env, db }) => {
    const samples = { auto: [], legacy: [] };
    const eras = { auto: new Set(), legacy: new Set() };
    for (let i = 0; i < runs; i++)
      for (const mode of ['auto', 'legacy']) {
        const { ms: took, version } = await connectOnce(node, env, db, mode);
        samples[mode].push(took);
        eras[mode].add(version);
      }
    return ['auto', 'legacy'].map((mode) =>
      row(`mcp: connect and tools/list, v2 client in ${mode} mode`, ms(median(samples[mode])), `settles on ${[...eras[mode]].join(', ')}`, true),
    );
  });
}

async function connectOnce(node, env, db, mode) {
  const started = performance.now();
  const client = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode } });
  await client.connect(new StdioClientTransport({ command: node, args: [lkBin, 'mcp', '--db', db], env, stderr: 'ignore' }));
  await client.listTools();
  const took = performance.now() - started;
  const version = client.getNegotiatedProtocolVersion();
  await client.close();
  return { ms: took, version };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const { figure, value, target } of await mcpConnect()) console.log(`${figure}: ${value} (${target})`);
}
