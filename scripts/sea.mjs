#!/usr/bin/env node
// `npm run sea`: dist/sea/lk, one executable carrying Node and lk (a Node single executable application), and
// dist/sea/lk.sha256 beside it. Built from dist/ (npm run sea builds it first) for the platform this runs on.
//
// The Node inside is SEA_NODE in scripts/sea-node.mjs, the one place it is named (see there what means a rebuild).
// From Node 25.5 `node --build-sea` makes the file; an older SEA_NODE takes the route Node's documentation gives
// before that: `--experimental-sea-config` writes a blob, postject (a devDependency) injects it into a copy of node.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { SEA_NODE, pinnedNode } from './sea-node.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const out = join(dist, 'sea');
const require = createRequire(import.meta.url);

// The prebuilt keyring addon of this platform, from @napi-rs/keyring's platform package (installed with it).
const KEYRING_PACKAGE = {
  'linux-x64': '@napi-rs/keyring-linux-x64-gnu',
  'linux-arm64': '@napi-rs/keyring-linux-arm64-gnu',
  'darwin-x64': '@napi-rs/keyring-darwin-x64',
  'darwin-arm64': '@napi-rs/keyring-darwin-arm64',
  'win32-x64': '@napi-rs/keyring-win32-x64-msvc',
};

const atLeast = (version, [major, minor]) => {
  const [a, b] = version.split('.').map(Number);
  return a > major || (a === major && b >= minor);
};

/** bin/lk.cjs and dist/cli.cjs as function bodies after the loader: one script, all of it in the code cache. */
function mainScript() {
  const asBody = (file) => readFileSync(file, 'utf8').replace(/^#!.*\n/, '');
  const params = 'exports, require, module, __filename, __dirname';
  return [
    readFileSync(join(root, 'scripts/sea-main.cjs'), 'utf8'),
    `start(function (${params}) {`,
    asBody(join(root, 'bin/lk.cjs')),
    `}, function (${params}) {`,
    asBody(join(dist, 'cli.cjs')),
    '});',
    '',
  ].join('\n');
}

function assets() {
  // Every bundle the build wrote beside the program (which is in the main script).
  const bundles = readdirSync(dist).filter((name) => name.endsWith('.cjs') && name !== 'cli.cjs');
  const keyringPackage = KEYRING_PACKAGE[`${process.platform}-${process.arch}`];
  if (!keyringPackage) throw new Error(`no keyring addon known for ${process.platform}-${process.arch}`);
  const keyringRequire = createRequire(require.resolve('@napi-rs/keyring'));
  return {
    ...Object.fromEntries(bundles.map((name) => [name, join(dist, name)])),
    'keyring.node': keyringRequire.resolve(keyringPackage),
    'jq-wasm.cjs': require.resolve('jq-wasm'),
    'jq.wasm': require.resolve('jq-wasm/jq.wasm'),
  };
}

/**
 * On Linux, Node's release binary carries its symbol table and debug information (~33 MB, 5 MB of it after gzip, which
 * the file's 50 MB target cannot spare): the file is made from a copy without them (binutils' strip). What addons
 * link against, the dynamic symbols, stays.
 */
function strippedCopy(node) {
  const copy = join(out, 'node');
  try {
    execFileSync('strip', ['--strip-all', '-o', copy, node], { stdio: ['ignore', 'ignore', 'inherit'] });
  } catch (error) {
    throw new Error(`npm run sea: cannot strip a copy of Node (${error.message.split('\n')[0]}); install binutils`, { cause: error });
  }
  return copy;
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const node = process.platform === 'linux' ? strippedCopy(pinnedNode()) : pinnedNode();
const exe = join(out, process.platform === 'win32' ? 'lk.exe' : 'lk');
const main = join(out, 'main.cjs');
writeFileSync(main, mainScript());
const config = {
  main,
  output: exe,
  disableExperimentalSEAWarning: true,
  // Measured in bench/sea.mjs: V8's code for the program, made at build time, saves compiling it at every start.
  useCodeCache: process.env.LK_SEA_CODE_CACHE !== '0',
  assets: assets(),
};
const configFile = join(out, 'sea-config.json');
if (atLeast(SEA_NODE, [25, 5])) {
  writeFileSync(configFile, JSON.stringify(config, null, 2));
  execFileSync(node, ['--build-sea', configFile], { stdio: ['ignore', 'ignore', 'inherit'] });
} else {
  const blob = join(out, 'sea-prep.blob');
  writeFileSync(configFile, JSON.stringify({ ...config, output: blob }, null, 2));
  execFileSync(node, ['--experimental-sea-config', configFile], { stdio: ['ignore', 'ignore', 'inherit'] });
  copyFileSync(node, exe);
  chmodSync(exe, 0o755);
  const { inject } = await import('postject');
  await inject(exe, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2' });
  rmSync(blob);
}
rmSync(main);
rmSync(configFile);
if (node.startsWith(out)) rmSync(node);

const bytes = readFileSync(exe);
const sha256 = createHash('sha256').update(bytes).digest('hex');
writeFileSync(`${exe}.sha256`, `${sha256}  ${exe.slice(out.length + 1)}\n`);
const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;
const gzipped = process.env.LK_SEA_QUIET ? undefined : gzipSync(bytes).length;
process.stdout.write(
  `${exe.slice(root.length)}: Node ${SEA_NODE}, ${mb(statSync(exe).size)}${gzipped ? `, ${mb(gzipped)} gzip` : ''}\n` +
    `${dirname(exe).slice(root.length)}/${exe.slice(out.length + 1)}.sha256: ${sha256}\n`,
);
