import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
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
  let manifest: {
    server: { mcp_config: { args: string[] } };
    tools: { name: string }[];
    user_config: Record<string, { type: string; required?: boolean }>;
  } & Record<string, unknown>;

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

  it('has settings for --live, the profile, the mirror and a key file, each one an argument of the launcher', () => {
    expect(Object.fromEntries(Object.entries(manifest.user_config).map(([name, setting]) => [name, setting.type]))).toEqual({
      live: 'boolean',
      profile: 'string',
      mirror: 'file',
      key_file: 'file',
    });
    for (const setting of Object.values(manifest.user_config)) expect(setting.required).toBe(false);
    const named = manifest.server.mcp_config.args.flatMap((arg) => [...arg.matchAll(/\$\{user_config\.(\w+)\}/g)].map((match) => match[1]));
    expect(named.sort()).toEqual(Object.keys(manifest.user_config).sort());
  });

  /** The bundle's lk as a host starts it with these settings; a setting not given stays its placeholder, as in a host. */
  async function startedWith(settings: Record<string, string>, mirror: string, env: Record<string, string>) {
    const args = manifest.server.mcp_config.args.map((arg) =>
      arg.replace('${__dirname}', unpacked).replace(/\$\{user_config\.(\w+)\}/g, (placeholder, name: string) => settings[name] ?? placeholder),
    );
    const client = new Client({ name: 'lk-test', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StdioClientTransport({ command: process.execPath, args, env, stderr: 'pipe' }));
    return client;
  }

  itWithSqlite("serves the mirror its setting names, with --live when live is set, and reads the API with the key file's key", async () => {
    const mirror = join(tempDir('lk-mcpb-settings-'), 'mirror.db');
    expect((await bed.lk(['sync', '--db', mirror])).code).toBe(0);
    const openWorld = async (client: Client) =>
      (await client.listTools()).tools
        .filter((tool) => tool.annotations?.openWorldHint === true)
        .map((tool) => tool.name)
        .sort();

    const offline = await startedWith({ live: 'false', mirror, profile: '' }, mirror, mcpEnv(bed));
    try {
      expect(await openWorld(offline)).toEqual([]);
      const listing = (await offline.callTool({ name: 'list_library', arguments: { limit: 1 } })).structuredContent as { total: number };
      expect(listing.total).toBe(20);
    } finally {
      await offline.close();
    }

    // No key in the environment: only the key file the setting names.
    const keyFile = join(tempDir('lk-mcpb-key-'), 'key');
    const { LK_API_KEY: key, ...withoutKey } = mcpEnv(bed);
    writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
    const live = await startedWith({ live: 'true', mirror, key_file: keyFile }, mirror, withoutKey);
    try {
      expect(await openWorld(live)).toEqual(['calendar', 'get_entry', 'stats']);
      const stats = (await live.callTool({ name: 'stats', arguments: {} })).structuredContent as { source: string };
      expect(stats.source).toBe('api');
    } finally {
      await live.close();
    }
  });
});
