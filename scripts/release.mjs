#!/usr/bin/env node
// `npm run release`: dist/release/ — for linux-x64 and linux-arm64, an archive (lk-VERSION-linux-ARCH.tar.gz: the
// single file, completions, man pages, LICENSE, a README) and a Debian package (lk_VERSION_ARCH.deb), SHA256SUMS over
// them, and install.sh. Reproducible: every time and owner comes from the commit (SOURCE_DATE_EPOCH, else HEAD's commit
// time), entries are sorted, gzip carries no time — two runs from one commit make the same bytes, which
// `.ci/release-check` compares. Needs tar and dpkg-deb (Debian's dpkg), and for arm64 binutils-aarch64-linux-gnu.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildSea, fetchedPackage } from './sea.mjs';
import { SEA_NODE } from './sea-node.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist/release');
const work = join(root, '.tmp/release');
const { version, description } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const epoch = releaseEpoch();

/** Every time in the release: SOURCE_DATE_EPOCH, else HEAD's commit time; one line and exit 2 when neither is there. */
function releaseEpoch() {
  const stop = (message) => {
    process.stderr.write(`npm run release: ${message}\n`);
    process.exit(2);
  };
  const given = process.env.SOURCE_DATE_EPOCH;
  if (given !== undefined) {
    if (!/^\d+$/.test(given)) stop(`SOURCE_DATE_EPOCH is not a whole number of seconds: ${JSON.stringify(given)}`);
    return Number(given);
  }
  if (!existsSync(join(root, '.git'))) {
    stop(
      'no git history here (a source tree without .git): set SOURCE_DATE_EPOCH to the release time, e.g. SOURCE_DATE_EPOCH=1767225600 npm run release',
    );
  }
  try {
    return Number(execFileSync('git', ['log', '-1', '--format=%ct'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim());
  } catch (error) {
    stop(
      `git log cannot give the commit's time (${
        String(error.stderr ?? error.message)
          .trim()
          .split('\n')[0]
      }): set SOURCE_DATE_EPOCH`,
    );
  }
}

/** Node's and Debian's names for the two architectures. */
const TARGETS = [
  { arch: 'x64', deb: 'amd64' },
  { arch: 'arm64', deb: 'arm64' },
];

/** The completions the archive and the package carry: the file in completions/, its name in Debian's places. */
const COMPLETIONS = [
  { file: 'lk.bash', debian: 'usr/share/bash-completion/completions/lk' },
  { file: '_lk', debian: 'usr/share/zsh/vendor-completions/_lk' },
  { file: 'lk.fish', debian: 'usr/share/fish/vendor_completions.d/lk.fish' },
  // PowerShell has no place of its own in a Debian system: the archive carries it.
  { file: 'lk.ps1', debian: undefined },
];

const MAINTAINER = 'lk developers <lk@example.org>';

/** The man pages npm run build made (man/man1/), sorted. */
function manPages() {
  const dir = join(root, 'man/man1');
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => /\.1$/.test(name))
        .sort()
    : [];
}

function write(path, content, mode = 0o644) {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  chmodSync(path, mode);
}

function copy(from, to, mode = 0o644) {
  mkdirSync(join(to, '..'), { recursive: true });
  copyFileSync(from, to);
  chmodSync(to, mode);
}

/** Every folder 0755 and every time the commit's, depth first, so the archives hold nothing of this machine. */
function settle(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) settle(path);
    utimesSync(path, epoch, epoch);
  }
  chmodSync(dir, 0o755);
  utimesSync(dir, epoch, epoch);
}

const lkLicense = () => readFileSync(join(root, 'LICENSE'), 'utf8');
/** The license of the Node the single file for `arch` carries, as its package ships it. */
const nodeLicense = (arch) => readFileSync(join(fetchedPackage(`node-linux-${arch}`, SEA_NODE), 'LICENSE'), 'utf8');

/** lk's license, then that of the Node it carries. */
function licenseText(arch) {
  return `${lkLicense().trimEnd()}\n\n---\n\nlk carries Node.js ${SEA_NODE}, under this license:\n\n${nodeLicense(arch)}`;
}

const readme = (arch) => `lk ${version} for Linux ${arch}

${description}

  lk             the program: Node.js ${SEA_NODE} and lk in one file (nothing else to install)
  completions/   bash (lk.bash), zsh (_lk), fish (lk.fish) and PowerShell (lk.ps1)
  man/man1/      lk(1) and a page per command

Install: sh install.sh --prefix ~/.local lk-${version}-linux-${arch}.tar.gz (it checks the archive against
SHA256SUMS first), or copy lk into a folder on your PATH. Then: lk auth login, lk --help, man lk.
`;

/** lk-VERSION-linux-ARCH/ staged, then tarred (GNU tar: sorted, owners 0, the commit's time) and gzipped (no time). */
function archive(arch, exe) {
  const name = `lk-${version}-linux-${arch}`;
  const stage = join(work, arch, 'archive');
  rmSync(stage, { recursive: true, force: true });
  const top = join(stage, name);
  copy(exe, join(top, 'lk'), 0o755);
  write(join(top, 'LICENSE'), licenseText(arch));
  write(join(top, 'README'), readme(arch));
  for (const { file } of COMPLETIONS)
    if (existsSync(join(root, 'completions', file))) copy(join(root, 'completions', file), join(top, 'completions', file));
  for (const page of manPages()) copy(join(root, 'man/man1', page), join(top, 'man/man1', page));
  settle(stage);
  const tar = execFileSync(
    'tar',
    ['--sort=name', '--format=gnu', '--owner=0', '--group=0', '--numeric-owner', `--mtime=@${epoch}`, '-C', stage, '-cf', '-', name],
    {
      maxBuffer: 1 << 30,
    },
  );
  const file = join(out, `${name}.tar.gz`);
  writeFileSync(file, gzipSync(tar));
  return file;
}

const rfc2822 = (seconds) => new Date(seconds * 1000).toUTCString().replace('GMT', '+0000');

/** Debian's extended description: paragraphs folded to 79 columns, each line after a space, " ." between paragraphs. */
function extendedDescription(paragraphs) {
  return paragraphs
    .map((paragraph) => {
      const lines = [];
      let line = '';
      for (const word of paragraph.split(/\s+/)) {
        if (line && line.length + 1 + word.length > 78) {
          lines.push(line);
          line = word;
        } else line = line ? `${line} ${word}` : word;
      }
      return [...lines, line].map((text) => ` ${text}`).join('\n');
    })
    .join('\n .\n');
}

// No Homepage: the project publishes none yet (an npm package named lk is someone else's); lintian's no-homepage-field
// is informational.
function control(deb, installedKiB) {
  return `Package: lk
Version: ${version}
Architecture: ${deb}
Maintainer: ${MAINTAINER}
Installed-Size: ${installedKiB}
Depends: libc6 (>= 2.28), libstdc++6, libgcc-s1, libatomic1
Section: utils
Priority: optional
Description: command-line client for a media-tracking account
${extendedDescription([
  description,
  `One file carrying Node.js ${SEA_NODE}: lookups in a terminal, JSON for jq, a local SQLite mirror, backups from cron, a read-only web page and an MCP server.`,
])}
`;
}

/** A license text as a DEP-5 field's continuation lines: each line after a space, an empty one as " .". */
const continuation = (text) =>
  text
    .trimEnd()
    .split('\n')
    .map((line) => (line.trim() === '' ? ' .' : ` ${line}`))
    .join('\n');

/** usr/share/doc/lk/copyright in Debian's machine-readable format (DEP-5): lk's license and the Node.js it carries. */
function debianCopyright(arch) {
  const lk = lkLicense();
  const holder = /^Copyright \(c\) (.+)$/m.exec(lk)?.[1] ?? 'the lk authors';
  const node = nodeLicense(arch);
  return `Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: lk

Files: *
Copyright: ${holder}
License: Expat

Files: usr/bin/lk
Copyright: ${holder}
 Node.js contributors, and the authors of the libraries Node.js carries (named in its license below)
License: Expat and Node.js
Comment: usr/bin/lk is lk and the Node.js ${SEA_NODE} it runs on, in one file.

License: Expat
${continuation(lk.replace(/^MIT License\s*/, ''))}

License: Node.js
${continuation(node)}
`;
}

/**
 * lintian's tags that a single file carrying Node.js raises by design, each with its reason (usr/share/lintian/overrides).
 */
const LINTIAN_OVERRIDES = `# The single file carries Node.js, whose release binary links these libraries in: that is what makes it one file.
lk: embedded-library mbedtls [usr/bin/lk]
lk: embedded-library zlib [usr/bin/lk]
# usr/bin/lk is the Node.js project's own release binary (with lk's code injected): built by them, not by this package.
lk: hardening-no-pie [usr/bin/lk]
# The copyright file carries Node.js's LICENSE whole, as Node.js asks, and it quotes the licenses of its own dependencies.
lk: copyright-file-contains-full-apache-2-license
lk: copyright-not-using-common-license-for-gpl
lk: old-fsf-address-in-copyright-file
`;

function sizeKiB(dir) {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    bytes += entry.isDirectory() ? sizeKiB(path) * 1024 : statSync(path).size;
  }
  return Math.ceil(bytes / 1024);
}

/** lk_VERSION_ARCH.deb: the file in /usr/bin, completions and man pages where Debian puts them, a changelog. */
function debian(arch, deb, exe) {
  const stage = join(work, arch, 'deb');
  rmSync(stage, { recursive: true, force: true });
  copy(exe, join(stage, 'usr/bin/lk'), 0o755);
  for (const { file, debian: place } of COMPLETIONS)
    if (place && existsSync(join(root, 'completions', file))) copy(join(root, 'completions', file), join(stage, place));
  for (const page of manPages())
    write(join(stage, 'usr/share/man/man1', `${page}.gz`), gzipSync(readFileSync(join(root, 'man/man1', page)), { level: 9 }));
  const doc = join(stage, 'usr/share/doc/lk');
  write(join(doc, 'copyright'), debianCopyright(arch));
  // A native package (no Debian revision in its version): its changelog is changelog.gz, not changelog.Debian.gz.
  const changelog = `lk (${version}) unstable; urgency=medium\n\n  * Release ${version}.\n\n -- ${MAINTAINER}  ${rfc2822(epoch)}\n`;
  write(join(doc, 'changelog.gz'), gzipSync(Buffer.from(changelog), { level: 9 }));
  write(join(stage, 'usr/share/lintian/overrides/lk'), LINTIAN_OVERRIDES);
  const installed = sizeKiB(join(stage, 'usr'));
  write(join(stage, 'DEBIAN/control'), control(deb, installed));
  settle(stage);
  const file = join(out, `lk_${version}_${deb}.deb`);
  // gzip, not dpkg's default xz: a twentieth of the time on a 120 MB file, for a package a few MB larger.
  execFileSync('dpkg-deb', ['--root-owner-group', '-Zgzip', '--build', stage, file], {
    env: { ...process.env, SOURCE_DATE_EPOCH: String(epoch) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return file;
}

const started = Date.now();
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const made = [];
for (const { arch, deb } of TARGETS) {
  const { exe } = await buildSea({ target: `linux-${arch}`, out: join(work, arch, 'sea'), codeCache: false });
  made.push(archive(arch, exe), debian(arch, deb, exe));
}
copy(join(root, 'scripts/install.sh'), join(out, 'install.sh'), 0o755);
made.push(join(out, 'install.sh'));
const sums = made
  .map((file) => `${createHash('sha256').update(readFileSync(file)).digest('hex')}  ${relative(out, file)}`)
  .sort((a, b) => (a.slice(66) < b.slice(66) ? -1 : 1));
writeFileSync(join(out, 'SHA256SUMS'), `${sums.join('\n')}\n`);
rmSync(work, { recursive: true, force: true });
const mb = (file) => `${(statSync(file).size / 1e6).toFixed(1)} MB`;
process.stdout.write(`${made.map((file) => `dist/release/${relative(out, file)}  ${mb(file)}`).join('\n')}\ndist/release/SHA256SUMS\n`);
process.stdout.write(`npm run release: ${((Date.now() - started) / 1000).toFixed(0)} s (SOURCE_DATE_EPOCH=${epoch})\n`);
