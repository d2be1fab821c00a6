import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CodeCacheState } from '../../src/util/code-cache.js';

const CODE_CACHE = fileURLToPath(new URL('../../dist/code-cache.cjs', import.meta.url));

/**
 * Each load in a process of its own, as the launcher's are: within one process V8 keeps what it compiled and would
 * answer a second load from memory, whatever the cache file holds.
 */
function requireWithCodeCache<T>(file: string, cacheRoot: string | undefined, { save = false } = {}): { state: CodeCacheState; exports: T } {
  const script = `
    const loaded = require(${JSON.stringify(CODE_CACHE)}).requireWithCodeCache(${JSON.stringify(file)}, ${JSON.stringify(cacheRoot)});
    const exports = loaded.exports;
    const result = { state: loaded.state, exports: { answer: exports.answer, where: exports.where, self: exports.self, twice21: exports.twice?.(21), f7: exports.f7?.(1) } };
    if (${save}) loaded.save();
    process.stdout.write(JSON.stringify(result));`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as { state: CodeCacheState; exports: T };
}

/** A CommonJS program of a few modules, in a folder of its own, and a cache folder beside it. */
function program(body = 'module.exports.answer = 42;') {
  const dir = mkdtempSync(join(tmpdir(), 'lk-code-cache-'));
  writeFileSync(join(dir, 'helper.cjs'), 'module.exports = (x) => x * 2;\n');
  const file = join(dir, 'main.cjs');
  const source = (extra: string) =>
    `const twice = require('./helper.cjs');\nexports.twice = twice;\nexports.where = [__filename, __dirname];\nexports.self = module.exports === exports;\n${extra}\n` +
    // enough code for V8 to have something worth caching
    Array.from({ length: 200 }, (_, i) => `exports.f${i} = function f${i}(a) { return a + ${i}; };`).join('\n');
  writeFileSync(file, source(body));
  return { dir, file, cache: join(dir, 'cache'), rewrite: (extra: string) => writeFileSync(file, source(extra)) };
}

type Program = { twice21: number; where: string[]; self: boolean; answer?: number; f7: number };

describe('requireWithCodeCache', () => {
  it('loads the file as require() would: its exports, require beside it, __filename and __dirname', () => {
    const { dir, file, cache } = program();
    const loaded = requireWithCodeCache<Program>(file, cache);
    expect(loaded.exports.twice21).toBe(42);
    expect(loaded.exports.answer).toBe(42);
    expect(loaded.exports.where).toEqual([file, dir]);
    expect(loaded.exports.self).toBe(true);
  });

  it('has no cache the first time, writes one on save(), and the next load takes it', () => {
    const { file, cache } = program();
    const first = requireWithCodeCache<Program>(file, cache, { save: true });
    expect(first.state).toBe('none');
    const folder = join(cache, `node-${process.version}-${process.arch}`);
    expect(readdirSync(folder)).toHaveLength(1);
    const second = requireWithCodeCache<Program>(file, cache);
    expect(second.state).toBe('accepted');
    expect(second.exports.f7).toBe(8);
  });

  it('a changed file gets a cache of its own, and the old one is removed', () => {
    const { file, cache, rewrite } = program();
    requireWithCodeCache<Program>(file, cache, { save: true });
    const folder = join(cache, `node-${process.version}-${process.arch}`);
    const [old] = readdirSync(folder);
    rewrite('module.exports.answer = 43;');
    const changed = requireWithCodeCache<Program>(file, cache, { save: true });
    expect(changed.state).toBe('none');
    expect(changed.exports.answer).toBe(43);
    const files = readdirSync(folder);
    expect(files).toHaveLength(1);
    expect(files[0]).not.toBe(old);
  });

  it('a damaged cache is refused, the file still loads, and save() replaces it', () => {
    const { file, cache } = program();
    requireWithCodeCache<Program>(file, cache, { save: true });
    const folder = join(cache, `node-${process.version}-${process.arch}`);
    const [name] = readdirSync(folder);
    writeFileSync(join(folder, name!), Buffer.alloc(4096, 7));
    const damaged = requireWithCodeCache<Program>(file, cache, { save: true });
    expect(damaged.state).toBe('rejected');
    expect(damaged.exports.twice21).toBe(42);
    expect(requireWithCodeCache<Program>(file, cache).state).toBe('accepted');
  });

  it('without a cache folder, or with one that cannot be made, it loads and saves nothing, silently', () => {
    const { dir, file } = program();
    const none = requireWithCodeCache<Program>(file, undefined, { save: true });
    expect(none.state).toBe('none');
    expect(readdirSync(dir).sort()).toEqual(['helper.cjs', 'main.cjs']);
    const blocked = join(dir, 'blocked');
    writeFileSync(blocked, 'a file where the folder would go');
    const unwritable = requireWithCodeCache<Program>(file, blocked, { save: true });
    expect(unwritable.exports.twice21).toBe(42);
    expect(requireWithCodeCache<Program>(file, blocked).state).toBe('none');
  });
});
