import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir.js';

/**
 * The layers of .dependency-cruiser.cjs: depcruise fails on a file cycle, but a loop between folders (mirror may
 * import export, export diff, diff mirror) is allowed by the rules until a file closes it. The config refuses one
 * when it loads; these tests read the rules it gives depcruise and try to re-add the loop it once had.
 */
const configFile = resolve(dirname(fileURLToPath(import.meta.url)), '../../.dependency-cruiser.cjs');
const require = createRequire(import.meta.url);

interface Rule {
  name: string;
  to: { path?: string | string[] };
}

/** Each folder → the folders it may import, as the `layers-<folder>` rules say (every layer but the forbidden). */
function allowedByRules(rules: Rule[]): Map<string, string[]> {
  const layerRules = rules.filter((rule) => rule.name.startsWith('layers-'));
  const folderOf = (pattern: string) => /^\^src\/([a-z-]+)\(/.exec(pattern)?.[1];
  const everyLayer = new Set(layerRules.flatMap((rule) => [rule.name.slice('layers-'.length), ...[rule.to.path ?? []].flat().map(folderOf)]));
  return new Map(
    layerRules.map((rule) => {
      const from = rule.name.slice('layers-'.length);
      const forbidden = new Set([rule.to.path ?? []].flat().map(folderOf));
      return [from, [...everyLayer].filter((name): name is string => !!name && name !== from && !forbidden.has(name))];
    }),
  );
}

function hasLoop(graph: Map<string, string[]>): boolean {
  const state = new Map<string, 'open' | 'done'>();
  const visit = (name: string): boolean => {
    if (state.get(name) === 'open') return true;
    if (state.get(name) === 'done') return false;
    state.set(name, 'open');
    const looped = (graph.get(name) ?? []).some(visit);
    state.set(name, 'done');
    return looped;
  };
  return [...graph.keys()].some(visit);
}

describe('the layers depcruise enforces', () => {
  it('allow no loop between folders, and diff/ does not read the mirror', () => {
    const config = require(configFile) as { forbidden: Rule[] };
    const allowed = allowedByRules(config.forbidden);
    expect(allowed.get('diff')).toEqual(expect.arrayContaining(['items', 'util']));
    expect(allowed.get('diff')).not.toContain('mirror');
    expect(allowed.get('items')).toEqual(['util']);
    expect(hasLoop(allowed)).toBe(false);
    // The loop the rules once allowed is one this check sees.
    expect(hasLoop(new Map([...allowed, ['diff', [...allowed.get('diff')!, 'mirror']]]))).toBe(true);
  });

  it('refuse to load with a loop re-added, naming it', () => {
    const copy = join(tempDir(), 'dependency-cruiser.cjs');
    const text = readFileSync(configFile, 'utf8');
    const looped = text.replace("  diff: ['output', 'items', 'util'],", "  diff: ['mirror', 'output', 'items', 'util'],");
    expect(looped).not.toBe(text);
    writeFileSync(copy, looped);
    expect(() => require(copy)).toThrow('the layers allowed form a loop (diff → mirror → export → diff)');
  });
});
