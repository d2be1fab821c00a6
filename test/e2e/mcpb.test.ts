import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestBed, type TestBed } from './harness.js';
import { describeWith } from '../support/outside-tools.js';
import { itWithSqlite } from '../support/sqlite-node.js';
import { tempDir } from '../support/temp-dir.js';
import { mcpEnv } from '../mirror/mcp-support.js';
// @ts-expect-error: a build script in plain JavaScript, without types
import { manifestProblems } from '../../scripts/mcpb.mjs';

// Issue 49: scripts/mcpb.mjs makes lk's MCP Bundle (.mcpb, Claude Desktop's one-click install). Unpacked by unzip, as
// a host unpacks it: its manifest fits the MCPB schema, and the lk inside serves the tools the manifest names.

const root = fileURLToPath(new URL('../..', import.meta.url));
const problemsOf = manifestProblems as (value: unknown) => string[];

describeWith(['unzip'], 'the .mcpb bundle', () => {
  let bed: TestBed;
  let unpacked: string;
  let manifest: { server: { mcp_config: { args: string[] } }; tools: { name: string }[] } & Record<string, unknown>;

  beforeAll(async () => {
    bed = await startTestBed({ entries: 20, rateLimit: 0, exportIntervalSeconds: 0 });
    const work = tempDir('lk-mcpb-');
    const bundle = join(work, 'lk.mcpb');
    execFileSync(process.execPath, [join(root, 'scripts/mcpb.mjs'), bundle], { stdio: 'pipe' });
    unpacked = join(work, 'unpacked');
    execFileSync('unzip', ['-q', bundle, '-d', unpacked]);
    manifest = JSON.parse(readFileSync(join(unpacked, 'manifest.json'), 'utf8')) as typeof manifest;
  });
  afterAll(async () => {
    await bed.sandbox.close();
  });

  it('holds a manifest that fits the MCPB manifest schema, and one without its author does not', () => {
    expect(problemsOf(manifest)).toEqual([]);
    expect(manifest).toMatchObject({ manifest_version: '0.3', name: 'lk', server: { type: 'node', entry_point: 'bin/lk.cjs' } });
    const { author: _author, ...without } = manifest;
    expect(problemsOf(without)).toEqual(["/ must have required property 'author'"]);
  });

  it('runs its own lk: --version answers from the unpacked files', () => {
    const run = spawnSync(process.execPath, [join(unpacked, 'bin/lk.cjs'), '--version'], { encoding: 'utf8' });
    expect(run.stdout.trim()).toBe((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version);
  });

  itWithSqlite('serves, as the host starts it, the tools its manifest names', async () => {
    const mirror = join(tempDir('lk-mcpb-mirror-'), 'mirror.db');
    expect((await bed.lk(['sync', '--db', mirror])).code).toBe(0);
    const args = manifest.server.mcp_config.args.map((arg) => arg.replace('${__dirname}', unpacked));
    const client = new Client({ name: 'lk-test', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [...args, '--db', mirror], env: mcpEnv(bed), stderr: 'pipe' }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(manifest.tools.map((tool) => tool.name).sort());
    } finally {
      await client.close();
    }
  });
});
