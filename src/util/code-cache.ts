import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** What V8 did with the code cache: there was none, it took it, or it refused it (another build, Node or flags). */
export type CodeCacheState = 'none' | 'accepted' | 'rejected';

export interface CachedModule<T> {
  exports: T;
  state: CodeCacheState;
  /**
   * Writes V8's code for the file, as compiled so far (functions run since the load included), when there was no
   * cache or V8 refused it; once. Call it before V8's flags change: V8 refuses a cache made under other flags.
   */
  save(): void;
}

/** Node's CommonJS wrapper, so the file sees what require() would give it. */
const wrap = (source: string) => `(function (exports, require, module, __filename, __dirname) { ${source}\n})`;

/**
 * Loads a CommonJS file as require() would, but compiled with V8's code cache kept under `cacheRoot` (none: no cache).
 * Node 20 has no compile cache of its own and compiles lk's program from source at every start, ~20 ms of a 150 ms
 * `lk whoami`; Node 22's (module.enableCompileCache) keeps only the code compiled at load, where this keeps what the
 * run compiled before save(). The folder is lk's to delete; each Node version and architecture gets its own, and a
 * cache is named after the file's size and time, so a new build or Node never meets an old cache (V8 checks too). Any
 * failure to read or write the cache only costs the compile. The file must not use import(): code compiled through
 * node:vm cannot, on Node 20, without an experimental flag (scripts/build.mjs turns every import() into a require).
 */
export function requireWithCodeCache<T>(file: string, cacheRoot: string | undefined): CachedModule<T> {
  const source = readFileSync(file, 'utf8');
  const folder = cacheRoot && join(cacheRoot, `node-${process.version}-${process.arch}`);
  const { size, mtimeMs } = statSync(file);
  const cacheFile = folder && join(folder, `${size}-${Math.trunc(mtimeMs)}.bin`);
  const cachedData = cacheFile ? readOptional(cacheFile) : undefined;
  const script = new Script(wrap(source), { filename: file, ...(cachedData ? { cachedData } : {}) });
  const state: CodeCacheState = !cachedData ? 'none' : script.cachedDataRejected ? 'rejected' : 'accepted';
  const module = { exports: {} as T, filename: file, id: file, loaded: false };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  module.loaded = true;
  let saved = state === 'accepted';
  return {
    exports: module.exports,
    state,
    save() {
      if (saved || !folder || !cacheFile) return;
      saved = true;
      writeCache(folder, cacheFile, script.createCachedData());
    },
  };
}

function readOptional(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Whole or not at all (a temporary file renamed into place), and the caches of earlier builds removed. */
function writeCache(folder: string, cacheFile: string, data: Buffer): void {
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(temporary, data, { mode: 0o600 });
    renameSync(temporary, cacheFile);
    for (const name of readdirSync(folder)) {
      if (join(folder, name) !== cacheFile) rmSync(join(folder, name), { force: true });
    }
  } catch {
    // an unwritable cache folder only costs the compile
  }
}
