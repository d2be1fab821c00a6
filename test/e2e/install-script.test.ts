import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
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

/**
 * A release folder: the archive (lk, completions, a man page, LICENSE, README), SHA256SUMS, install.sh. `edit` changes
 * the staged folder before it is packed (a link or a FIFO among the members).
 */
function release(edit: (top: string) => void = () => {}): string {
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
  edit(top);
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

  it('checks and unpacks its own copy: an archive swapped in after the check is not what gets installed', () => {
    const dir = release();
    const archive = join(dir, `${NAME}.tar.gz`);
    // Another writer of the download folder, played by a sha256sum first on PATH: once the sum is taken, it puts an
    // archive of its own in the checked one's place.
    const evil = tempDir('lk-release-evil-');
    mkdirSync(join(evil, NAME));
    writeFileSync(join(evil, NAME, 'lk'), '#!/bin/sh\necho evil\n');
    chmodSync(join(evil, NAME, 'lk'), 0o755);
    expect(run('tar', ['-czf', join(evil, 'evil.tar.gz'), '-C', evil, NAME]).code).toBe(0);
    const bin = join(evil, 'bin');
    mkdirSync(bin);
    const realSum = run('sh', ['-c', 'command -v sha256sum']).stdout.trim();
    writeFileSync(join(bin, 'sha256sum'), `#!/bin/sh\n"${realSum}" "$@"\nstatus=$?\ncp "${join(evil, 'evil.tar.gz')}" "${archive}"\nexit $status\n`);
    chmodSync(join(bin, 'sha256sum'), 0o755);
    const prefix = join(dir, 'prefix');
    const result = run('sh', [join(dir, 'install.sh'), '--prefix', prefix], { env: { PATH: `${bin}:${process.env.PATH}` } });
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(archive, 'utf8').length).toBeGreaterThan(0);
    expect(run(join(prefix, 'bin/lk'), []).stdout).toBe('9.9.9\n');
  });

  it('refuses a prefix with a newline (it would be a command of uninstall.sh): exit 2, one line, nothing made', () => {
    const dir = release();
    const marker = join(dir, 'ran');
    const prefix = join(dir, `p\ntouch ${marker}\n`);
    const result = run('sh', [join(dir, 'install.sh'), '--prefix', prefix]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('install.sh: --prefix holds a control character (a newline, a tab…): name a plain folder\n');
    expect(readdirSync(dir).sort()).toEqual(['SHA256SUMS', 'install.sh', `${NAME}.tar.gz`, 'stage']);
  });

  it('uninstall.sh removes the folders install.sh made once they are empty, and none it found', () => {
    const dir = release();
    const home = join(dir, 'home');
    mkdirSync(join(home, 'share'), { recursive: true });
    writeFileSync(join(home, 'share/mine'), "the user's\n");
    const prefix = join(home, 'new/deeper');
    const result = run('sh', [join(dir, 'install.sh'), '--prefix', prefix]);
    expect(result.code, result.stderr).toBe(0);
    const uninstall = result.stdout.split('\n').find((line) => line.startsWith('To uninstall: '))!;
    expect(run('sh', ['-c', uninstall.slice('To uninstall: '.length)]).code).toBe(0);
    expect(existsSync(join(home, 'new'))).toBe(false);
    expect(filesUnder(home)).toEqual(['share/mine']);
  });

  it('a relative --prefix installs under the current folder, and its uninstall.sh works from anywhere', () => {
    const dir = release();
    const result = run('sh', [join(dir, 'install.sh'), '--prefix', 'rel'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`To uninstall: sh '${join(dir, 'rel/share/lk/uninstall.sh')}'`);
    expect(run('sh', [join(dir, 'rel/share/lk/uninstall.sh')], { cwd: tempDir('lk-elsewhere-') }).code).toBe(0);
    expect(existsSync(join(dir, 'rel'))).toBe(false);
  });

  it('warns that a plain-http base URL can be changed on the way, before it downloads', () => {
    const result = run('sh', [SCRIPT, '--prefix', join(tempDir('lk-prefix-'), 'p'), 'http://127.0.0.1:9/release/']);
    expect(result.stderr.split('\n')[0]).toBe(
      'install.sh: warning: http://127.0.0.1:9/release/ is plain http: the archive and SHA256SUMS can be changed on the way (use https://)',
    );
    expect(result.code).toBe(1);
  });

  it('bad usage is exit 2 with one line', () => {
    for (const args of [['--nope'], ['--prefix'], ['a.tar.gz', 'b.tar.gz']]) {
      const result = run('sh', [SCRIPT, ...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    }
  });
});

describeWith(['sha256sum', 'tar', 'mkfifo', 'timeout'], 'install.sh and odd archive members', () => {
  it.each([
    ['a symlink to a private file', (top: string, secret: string) => symlinkSync(secret, join(top, 'man/man1/lk-secret.1'))],
    ['a hard link', (top: string) => linkSync(join(top, 'README'), join(top, 'man/man1/lk-hard.1'))],
    ['a FIFO', (top: string) => expect(run('mkfifo', [join(top, 'man/man1/lk-fifo.1')]).code).toBe(0)],
  ])('refuses an archive holding %s among its members: exit 1, nothing installed', (_what, add) => {
    const secret = join(tempDir('lk-secret-'), 'key');
    writeFileSync(secret, 'the-secret-key\n', { mode: 0o600 });
    const dir = release((top) => add(top, secret));
    const prefix = join(dir, 'prefix');
    // Bounded by timeout(1), with what install.sh started: one that copies a FIFO member blocks on it for ever.
    const result = run('timeout', ['-s', 'KILL', '20', 'sh', join(dir, 'install.sh'), '--prefix', prefix]);
    expect(result.code, result.stdout).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^install\\.sh: ${NAME}\\.tar\\.gz holds a link or a special file \\(.*\\): nothing installed\n$`));
    expect(existsSync(prefix)).toBe(false);
  });
});

describeWith(['sha256sum', 'tar', 'zsh'], 'install.sh and zsh', () => {
  it("says how to put the completion folder on zsh's fpath when zsh does not look there", () => {
    const dir = release();
    const prefix = join(dir, 'prefix');
    const result = run('sh', [join(dir, 'install.sh'), '--prefix', prefix]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`  fpath=('${prefix}/share/zsh/site-functions' $fpath)\n`);
    // The line as printed, in zsh: the folder is then on fpath.
    const line = result.stdout
      .split('\n')
      .find((text) => text.startsWith('  fpath='))!
      .trim();
    expect(run('zsh', ['-fc', `${line}; print -rl -- $fpath`]).stdout.split('\n')).toContain(`${prefix}/share/zsh/site-functions`);
  });
});

describe('scripts/install.sh', () => {
  it('is POSIX sh: no bashism a dash would refuse (checked by sh -n)', () => {
    expect(run('sh', ['-n', SCRIPT]).code).toBe(0);
  });
});
