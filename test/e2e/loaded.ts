import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunOptions, RunResult, TestBed } from './harness.js';

// The single file (LK_TEST_BINARY) names its bundles as files in its own folder (scripts/sea-main.cjs).
const DIST = process.env.LK_TEST_BINARY ? `${dirname(resolve(process.env.LK_TEST_BINARY))}/` : fileURLToPath(new URL('../../dist/', import.meta.url));

/** What one run of lk loaded and ran, read from V8's own coverage of the process (NODE_V8_COVERAGE). */
export interface Loaded {
  run: RunResult;
  /** Node's built-in modules it loaded, without `node:` (`net`, `child_process`, `internal/streams/readable`…). */
  builtins: Set<string>;
  /** The files of dist/ it read (`cli.cjs`, `conf.cjs`…). */
  distFiles: Set<string>;
  /**
   * The modules it ran: lk's own (`src/api/client.ts`) and the packages' (`node_modules/undici/index.js`)
   * that esbuild bundled and wraps to run on first use, and files loaded from node_modules. (A module of src/ that
   * start-up always reaches is not wrapped: test/unit/start-up-graph.test.ts keeps that set small.)
   */
  modules: Set<string>;
  /** The packages among those modules (`undici`, `@napi-rs/keyring`). */
  packages: Set<string>;
}

interface ScriptCoverage {
  url: string;
  functions: Array<{ functionName: string; ranges: Array<{ count: number }> }>;
}

/** esbuild names each wrapped module after its path: `"node_modules/ora/index.js"() { … }`. */
const MODULE_NAME = /^(?:src|node_modules)\/.+\.[cm]?[jt]s$/;

export async function whatRunLoads(bed: TestBed, args: string[], options: RunOptions = {}): Promise<Loaded> {
  const coverage = mkdtempSync(join(bed.home.root, 'coverage-'));
  const run = await bed.lkProcess(args, { ...options, env: { ...options.env, NODE_V8_COVERAGE: coverage } });
  const scripts = readdirSync(coverage).flatMap(
    (file) => (JSON.parse(readFileSync(join(coverage, file), 'utf8')) as { result: ScriptCoverage[] }).result,
  );
  const builtins = new Set<string>();
  const distFiles = new Set<string>();
  const modules = new Set<string>();
  for (const script of scripts) {
    if (script.url.startsWith('node:')) {
      builtins.add(script.url.slice('node:'.length));
      continue;
    }
    const path = script.url.startsWith('file:') ? fileURLToPath(script.url) : script.url;
    // (A package the single file carries as an asset is named as in node_modules/ beside it, in its folder.)
    if (path.includes('/node_modules/')) {
      modules.add(path.slice(path.lastIndexOf('/node_modules/') + 1));
    } else if (path.startsWith(DIST)) {
      distFiles.add(path.slice(DIST.length));
      for (const fn of script.functions) {
        if (MODULE_NAME.test(fn.functionName) && fn.ranges[0]!.count > 0) modules.add(fn.functionName);
      }
    }
  }
  const packages = new Set(
    [...modules]
      .filter((name) => name.startsWith('node_modules/'))
      .map((name) =>
        name
          .split('/')
          .slice(1, name.split('/')[1]!.startsWith('@') ? 3 : 2)
          .join('/'),
      ),
  );
  return { run, builtins, distFiles, modules, packages };
}
