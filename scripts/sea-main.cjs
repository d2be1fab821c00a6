'use strict';
// The single file's entry (scripts/sea.mjs puts it in front of bin/lk.cjs and dist/cli.cjs). In a Node single
// executable application, require() of the main script loads Node's built-in modules and nothing else, and there is no
// dist/ folder: this supplies the `require` the launcher and the bundles are written for, which finds the bundles
// beside dist/cli.cjs among the executable's assets (sea.getAsset), the keyring's native addon as an asset loaded with
// process.dlopen, and jq-wasm with its WebAssembly from the assets as well. The program itself (dist/cli.cjs) is part
// of this script, so the code cache built into the file (useCodeCache) covers it.
//
// LK_SEA_ROLE=mirror-query (set by src/mirror/query-process.ts, which forks the executable itself in the single file)
// makes this process the mirror's query process instead of lk.
const { getAsset, getRawAsset } = require('node:sea');
const { isBuiltin } = require('node:module');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const vm = require('node:vm');

// What __filename and __dirname say to the bundles (their stacks name e.g. …/report.cjs): the executable's folder,
// where nothing is read.
const DIST = path.dirname(process.execPath);
const loaded = new Map();
let programBody;

/** Runs a CommonJS file's text as Node would (the same five arguments), with `lkRequire` as its require. */
function runCommonJs(file, body) {
  const module = { exports: {} };
  const filename = path.join(DIST, file);
  body.call(module.exports, module.exports, lkRequire, module, filename, path.dirname(filename));
  return module.exports;
}

/** An asset that is a CommonJS file, run; `file` names it in stacks (a package's as in node_modules/). */
function bundle(name, file = name) {
  const source = getAsset(name, 'utf8');
  const params = ['exports', 'require', 'module', '__filename', '__dirname'];
  return runCommonJs(file, vm.compileFunction(source, params, { filename: path.join(DIST, file) }));
}

/**
 * The keyring's prebuilt addon: copied into a folder of this process's own (mkdtemp: mode 0700, a fresh name), loaded
 * from there and removed at once (the loaded library stays mapped). Where that cannot work (a temp folder mounted
 * noexec), the error says so, and lk keeps the key in its 0600 config file as it does wherever the keyring is absent.
 */
function keyring() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lk-keyring-'));
  try {
    const file = path.join(dir, 'keyring.node');
    fs.writeFileSync(file, new Uint8Array(getRawAsset('keyring.node')), { mode: 0o700 });
    const module = { exports: {} };
    process.dlopen(module, file);
    return module.exports;
  } catch (error) {
    error.message = `the single file could not load its keyring addon from ${os.tmpdir()} (a temp folder that allows no programs?): ${error.message}`;
    throw error;
  } finally {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // Windows keeps a loaded library's file: see docs/single-file.md
    }
  }
}

/** jq-wasm reads jq.wasm beside its own files by default; here its loadJq is given the asset's bytes (its documented way). */
function jqWasm() {
  const jq = bundle('jq-wasm.cjs', 'node_modules/jq-wasm/dist/index.cjs');
  return { ...jq, loadJq: (options = {}) => jq.loadJq({ wasmBinary: new Uint8Array(getRawAsset('jq.wasm')), ...options }) };
}

const SPECIAL = { '@napi-rs/keyring': keyring, 'jq-wasm': jqWasm };

function lkRequire(id) {
  if (isBuiltin(id)) return require(id);
  if (!loaded.has(id)) {
    const name = path.basename(id);
    if (id === '../dist/cli.cjs') loaded.set(id, runCommonJs('cli.cjs', programBody));
    else if (SPECIAL[id]) loaded.set(id, SPECIAL[id]());
    else if (id.endsWith('.cjs') && (id.startsWith('./') || id.startsWith('../dist/'))) loaded.set(id, bundle(name));
    else throw Object.assign(new Error(`Cannot find module '${id}' in lk's single file`), { code: 'MODULE_NOT_FOUND' });
  }
  return loaded.get(id);
}

/** launcher: bin/lk.cjs; program: dist/cli.cjs, each as the body of a CommonJS function. */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- called by the lines scripts/sea.mjs appends
function start(launcher, program) {
  if (process.env.LK_SEA_ROLE === 'mirror-query' && process.channel) {
    delete process.env.LK_SEA_ROLE;
    // [executable, executable, 'mirror-query.cjs', mirror] → [executable, 'mirror-query.cjs', mirror], as under node.
    process.argv.splice(1, 1);
    bundle('mirror-query.cjs');
    return;
  }
  programBody = program;
  runCommonJs('lk.cjs', launcher);
}
