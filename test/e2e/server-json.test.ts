import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';

// Issue 61: server.json, lk's entry for the MCP Registry, fits the registry's published schema (vendored byte for byte
// with its licence: scripts/registry/), names the npm package it is verified by (package.json's mcpName), and says
// what lk is in 100 characters or fewer.

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => JSON.parse(readFileSync(join(root, path), 'utf8')) as Record<string, unknown>;

function problemsOf(value: unknown): string[] {
  const schema = read('scripts/registry/server.schema.json');
  // Not strict: the schema annotates with `example` (no word of draft-07) and requires properties an allOf declares.
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajv.addFormat('uri', (text: string) => URL.canParse(text));
  const validate = ajv.compile(schema);
  return validate(value) ? [] : validate.errors!.map((error) => `${error.instancePath || '/'} ${error.message}`);
}

describe('server.json, the MCP Registry entry', () => {
  const server = read('server.json') as {
    $schema: string;
    name: string;
    description: string;
    version: string;
    packages: { registryType: string; identifier: string; version: string; transport: { type: string }; packageArguments: { value?: string }[] }[];
  };
  const pkg = read('package.json') as { name: string; version: string; mcpName: string };

  it('fits the published schema it names, and one with too long a description does not', () => {
    expect(server.$schema).toBe(read('scripts/registry/server.schema.json').$id);
    expect(problemsOf(server)).toEqual([]);
    expect(problemsOf({ ...server, description: 'x'.repeat(101) })).toContain('/description must NOT have more than 100 characters');
  });

  it('is the npm package lk mcp runs from, verified by its mcpName, at the version package.json says', () => {
    expect(server.name).toBe(pkg.mcpName);
    expect(server.version).toBe(pkg.version);
    expect(server.description.length).toBeLessThanOrEqual(100);
    const npm = server.packages.find((entry) => entry.registryType === 'npm');
    expect(npm).toMatchObject({ identifier: pkg.name, version: pkg.version, transport: { type: 'stdio' } });
    expect(npm!.packageArguments[0]).toMatchObject({ type: 'positional', value: 'mcp' });
  });
});
