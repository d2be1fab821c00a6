import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * lk uses other packages only as they publish themselves (their main entry, or a subpath their package.json exports)
 * and takes each under a caret range, so that `npm update` brings their fixes without a porting job.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

const SPECIFIER = /(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*|\bdeclare\s+module\s+|^import\s+)['"]([^'"$]+)['"]/gm;

function sourceFiles(folder: string): string[] {
  return (readdirSync(join(ROOT, folder), { recursive: true }) as string[])
    .filter((name) => /\.(?:[cm]?js|ts)$/.test(name))
    .map((name) => join(folder, name));
}

/** `undici` → undefined; `csv-stringify/sync` → `./sync`; `@scope/name/x` → `./x`. */
function splitSpecifier(specifier: string): { name: string; subpath: string | undefined } {
  const parts = specifier.split('/');
  const length = specifier.startsWith('@') ? 2 : 1;
  return { name: parts.slice(0, length).join('/'), subpath: parts.length > length ? `./${parts.slice(length).join('/')}` : undefined };
}

function exportedSubpaths(name: string): string[] {
  const { exports } = JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { exports?: unknown };
  return exports && typeof exports === 'object' ? Object.keys(exports).filter((key) => key.startsWith('./')) : [];
}

/** A subpath of `exports`, exactly or as a pattern (Node's subpath patterns: `"./*": "./dist/*"`, as the MCP SDK has). */
function exportMatches(exported: string, subpath: string): boolean {
  const star = exported.indexOf('*');
  if (star === -1) return exported === subpath;
  const [before, after] = [exported.slice(0, star), exported.slice(star + 1)];
  return subpath.length > before.length + after.length && subpath.startsWith(before) && subpath.endsWith(after);
}

describe("lk and other packages' code", () => {
  const specifiers = ['src', 'bin', 'scripts', 'bench', 'test']
    .flatMap(sourceFiles)
    .flatMap((file) => [...readFileSync(join(ROOT, file), 'utf8').matchAll(SPECIFIER)].map((match) => ({ file, specifier: match[1]! })));
  const packageSpecifiers = specifiers.filter(({ specifier }) => !/^(?:\.|\/|node:)/.test(specifier));

  it('reads the imports: lk imports undici and commander by name', () => {
    expect(packageSpecifiers.map(({ specifier }) => specifier)).toEqual(expect.arrayContaining(['undici', 'commander', 'csv-stringify/sync']));
  });

  it('no file of lk names a path inside another package, only its main entry or a subpath it exports', () => {
    const inside = packageSpecifiers.filter(({ specifier }) => {
      const { name, subpath } = splitSpecifier(specifier);
      return subpath !== undefined && !exportedSubpaths(name).some((exported) => exportMatches(exported, subpath));
    });
    expect(inside).toEqual([]);
  });

  it.each(Object.entries({ ...manifest.dependencies, ...manifest.devDependencies }))('package.json takes %s under a caret range', (_name, range) => {
    expect(range).toMatch(/^\^\d+\.\d+\.\d+/);
  });
});
