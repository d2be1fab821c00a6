import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeWith } from '../support/outside-tools.js';
import { tempDir } from '../support/temp-dir.js';

// The release's install.sh (scripts/install.sh, issue 51), run by sh as a user runs it, on a release of the test's
// own: an archive of the release's layout whose `lk` is a small script, and its SHA256SUMS. What the real archives
// hold, and that their lk runs, .ci/release-check tries on `npm run release`'s output.

const SCRIPT = join(process.cwd(), 'scripts/install.sh');
const ARCH = process.arch === 'arm64' ? 'arm64' : 'x64';
const NAME = `lk-9.9.9-linux-${ARCH}`;

function run(command: string, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', cwd: options.cwd, env: { ...process.env, ...options.env } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A release folder: the archive (lk, completions, a man page, LICENSE, README), SHA256SUMS, install.sh. */
function release(): string {
  const dir = tempDir('lk-release-');
  const top = join(dir, 'stage', NAME);
  mkdirSync(join(top, 'completions'), { recursive: true });
  mkdirSync(join(top, 'man/man1'), { recursive: true });
  writeFileSync(join(top, 'lk'), '#!/bin/sh\necho 9.9.9\n');
  chmodSync(join(top, 'lk'), 0o755);
  for (const file of ['lk.bash', '_lk', 'lk.fish', 'lk.ps1']) writeFileSync(join(top, 'completions', file), `# ${file}\n`);
  writeFileSync(join(top, 'man/man1/lk.1'), '.TH LK 1\n');
  writeFileSync(join(top, 'LICENSE'), 'MIT\n');
  writeFileSync(join(top, 'README'), 'lk\n');
  expect(run('tar', ['-czf', join(dir, `${NAME}.tar.gz`), '-C', join(dir, 'stage'), NAME]).code).toBe(0);
  const sums = run('sha256sum', [`${NAME}.tar.gz`], { cwd: dir });
  writeFileSync(join(dir, 'SHA256SUMS'), sums.stdout);
  writeFileSync(join(dir, 'install.sh'), readFileSync(SCRIPT));
  return dir;
}

/** Every file under a folder, relative to it, sorted. */
function filesUnder(dir: string, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`]))
    .sort();
}

describeWith(['sha256sum', 'tar'], 'install.sh', () => {
  it('installs the archive beside it into --prefix: the binary, the man pages, the completions; says how to uninstall', () => {
    const dir = release();
    const prefix = join(dir, 'prefix');
    const result = run('sh', [join(dir, 'install.sh'), '--prefix', prefix]);
    expect(result.code, result.stderr).toBe(0);
    expect(filesUnder(prefix)).toEqual([
      'bin/lk',
      'share/bash-completion/completions/lk',
      'share/fish/vendor_completions.d/lk.fish',
      'share/lk/completions/lk.ps1',
      'share/lk/uninstall.sh',
      'share/man/man1/lk.1',
      'share/zsh/site-functions/_lk',
    ]);
    expect(run(join(prefix, 'bin/lk'), []).stdout).toBe('9.9.9\n');
    expect(result.stdout).toContain('lk 9.9.9 is installed.');
    const uninstall = result.stdout.split('\n').find((line) => line.startsWith('To uninstall: '))!;
    expect(run('sh', ['-c', uninstall.slice('To uninstall: '.length)]).code).toBe(0);
    expect(filesUnder(prefix).filter((file) => !file.endsWith('/'))).toEqual([]);
  });

  it('takes the archive named on its command line, from another folder, into a prefix with a space and a quote', () => {
    const dir = release();
    const prefix = join(dir, "Bob's tools");
    const result = run('sh', [SCRIPT, `--prefix=${prefix}`, join(dir, `${NAME}.tar.gz`)], { cwd: tempDir('lk-install-cwd-') });
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(join(prefix, 'bin/lk'))).toBe(true);
    const uninstall = result.stdout.split('\n').find((line) => line.startsWith('To uninstall: '))!;
    expect(run('sh', ['-c', uninstall.slice('To uninstall: '.length)]).stdout).toBe(`lk removed from ${prefix}\n`);
    expect(filesUnder(prefix)).toEqual([]);
  });

  it('refuses an archive one byte of which changed: exit 1, "checksum does not match", nothing installed', () => {
    const dir = release();
    const archive = join(dir, `${NAME}.tar.gz`);
    const bytes = readFileSync(archive);
    bytes[bytes.length - 5] = (bytes[bytes.length - 5]! + 1) % 256;
    writeFileSync(archive, bytes);
    const prefix = join(dir, 'prefix');
    const result = run('sh', [join(dir, 'install.sh'), '--prefix', prefix]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`install.sh: checksum does not match for ${NAME}.tar.gz: nothing installed\n`);
    expect(existsSync(prefix)).toBe(false);
  });

  it('refuses an archive without SHA256SUMS beside it, or one SHA256SUMS does not name', () => {
    const dir = release();
    const prefix = join(dir, 'prefix');
    writeFileSync(join(dir, 'SHA256SUMS'), `${'0'.repeat(64)}  lk-other.tar.gz\n`);
    const unnamed = run('sh', [join(dir, 'install.sh'), '--prefix', prefix]);
    expect(unnamed.code).toBe(1);
    expect(unnamed.stderr).toBe(`install.sh: SHA256SUMS names no ${NAME}.tar.gz: nothing installed\n`);
    const bare = tempDir('lk-release-bare-');
    writeFileSync(join(bare, `${NAME}.tar.gz`), readFileSync(join(dir, `${NAME}.tar.gz`)));
    const unchecked = run('sh', [SCRIPT, '--prefix', prefix, join(bare, `${NAME}.tar.gz`)]);
    expect(unchecked.code).toBe(1);
    expect(unchecked.stderr).toMatch(/^install\.sh: no SHA256SUMS beside .*: it cannot be checked, so it is not installed\n$/);
    expect(existsSync(prefix)).toBe(false);
  });

  it('bad usage is exit 2 with one line', () => {
    for (const args of [['--nope'], ['--prefix'], ['a.tar.gz', 'b.tar.gz']]) {
      const result = run('sh', [SCRIPT, ...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    }
  });
});

describe('scripts/install.sh', () => {
  it('is POSIX sh: no bashism a dash would refuse (checked by sh -n)', () => {
    expect(run('sh', ['-n', SCRIPT]).code).toBe(0);
  });
});
