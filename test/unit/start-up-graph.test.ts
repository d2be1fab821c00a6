import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * What every command pays for at start-up: the modules src/cli.ts reaches through static imports (type-only imports
 * and `await import()` excluded). dist/cli.cjs bundles lk's modules (and string-width), so the run-time import
 * recorder of test/e2e/lazy-loading.test.ts cannot see them; this reads the source instead.
 */
const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
const STATIC_IMPORT = /^import\s+(?!type\b)(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;

function startUpGraph(): { modules: Set<string>; packages: Set<string> } {
  const modules = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (modules.has(file)) return;
    modules.add(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      if (specifier!.startsWith('.')) visit(resolve(dirname(file), specifier!.replace(/\.js$/, '.ts')));
      else packages.add(specifier!);
    }
  };
  visit(resolve(src, 'cli.ts'));
  return { modules, packages };
}

describe('start-up loads only what every command needs', () => {
  const { modules, packages } = startUpGraph();
  const relative = [...modules].map((file) => file.slice(src.length + 1));

  it('reads the graph: cli.ts reaches the command table and commander, and no command (each loads when it runs)', () => {
    expect(relative).toContain('commands/index.ts');
    expect(packages).toContain('commander');
    expect(relative).not.toContain('commands/library.ts');
  });

  it.each(['string-width', 'ora', 'csv-stringify', 'csv-stringify/sync', 'jq-wasm', 'conf', 'undici', 'picocolors', '@napi-rs/keyring'])(
    '%s is loaded only by the commands and formats that use it',
    (name) => {
      expect(packages).not.toContain(name);
    },
  );

  it.each([
    'output/terminal/width.ts',
    'output/formats/table.ts',
    'output/formats/aligned-lines.ts',
    'output/formats/sections.ts',
    'output/wording/account.ts',
    'sandbox/index.ts',
    'mirror/sync.ts',
    'api/client.ts',
  ])('src/%s is not part of start-up', (module) => {
    expect(relative).not.toContain(module);
  });
});
