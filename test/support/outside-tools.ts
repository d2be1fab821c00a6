import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, it } from 'vitest';
// @ts-expect-error: a script's module in plain JavaScript, without types
import { CHROMIUM_ARGS as SHARED_CHROMIUM_ARGS } from '../../scripts/chromium-args.mjs';

/**
 * The programs some tests need from outside Node, each with the Debian package that brings it. A test that needs one
 * is declared with `describeWith` and skips, with the reason in its name, where the tool is missing: `npm test` stays
 * green on a machine with nothing but Node, and its last line (test/support/skip-summary.ts) names what was skipped
 * and the `apt-get install` that brings it. `.ci/run` sets LK_REQUIRE_OUTSIDE_TOOLS=1, which turns a skip into a
 * failure, so CI cannot go green with a tool silently missing.
 */
export const OUTSIDE_TOOLS = {
  bash: { apt: 'bash', present: () => onPath('bash') },
  // POSIX sh: shell aliases (`lk alias set --shell`) and the extensions the tests write are run by it.
  sh: { apt: 'dash', present: () => onPath('sh') },
  // man-db's man and groff's nroff: the man pages the package installs, read as a person would.
  man: { apt: 'man-db groff-base', present: () => onPath('man') && onPath('nroff') },
  // groff's own warnings (-ww) on the roff lk writes, before man-db formats it.
  groff: { apt: 'groff-base', present: () => onPath('groff') },
  // util-linux's script (-q -e -c): a pseudo-terminal without tmux. macOS's BSD script takes other flags.
  script: {
    apt: 'bsdutils',
    present: () => onPath('script') && /util-linux/.test(spawnSync('script', ['--version'], { encoding: 'utf8' }).stdout ?? ''),
  },
  less: { apt: 'less', present: () => onPath('less') },
  // coreutils' special-file makers and `yes`: FIFOs and devices for -o, --db and LK_API_KEY_FILE (Node makes neither).
  mkfifo: { apt: 'coreutils', present: () => onPath('mkfifo') },
  mknod: { apt: 'coreutils', present: () => onPath('mknod') },
  yes: { apt: 'coreutils', present: () => onPath('yes') },
  // coreutils' timeout ends a command and its children together (spawnSync's own timeout ends the first one only).
  timeout: { apt: 'coreutils', present: () => onPath('timeout') },
  // The release's install.sh needs only these (and sh): it is tried with them.
  sha256sum: { apt: 'coreutils', present: () => onPath('sha256sum') },
  tar: { apt: 'tar', present: () => onPath('tar') && onPath('gzip') },
  // util-linux's mount and umount: a small tmpfs of the test's own (a full disk, a read-only file system). Mounting
  // also needs the right to (root here); a test says so in its skip when it has not.
  mount: { apt: 'mount', present: () => onPath('mount') && onPath('umount') },
  zsh: { apt: 'zsh', present: () => onPath('zsh') },
  fish: { apt: 'fish', present: () => onPath('fish') },
  tmux: { apt: 'tmux', present: () => onPath('tmux') },
  jq: { apt: 'jq', present: () => onPath('jq') },
  unzip: { apt: 'unzip', present: () => onPath('unzip') },
  git: { apt: 'git', present: () => onPath('git') },
  tinyproxy: { apt: 'tinyproxy', present: () => onPath('tinyproxy') },
  openssl: { apt: 'openssl', present: () => onPath('openssl') },
  'gnome-keyring': { apt: 'gnome-keyring', present: () => onPath('gnome-keyring-daemon') },
  dbus: { apt: 'dbus', present: () => onPath('dbus-run-session') },
  'bash-completion': { apt: 'bash-completion', present: () => existsSync('/usr/share/bash-completion/bash_completion') },
  python3: { apt: 'python3', present: () => onPath('python3') },
  chromium: { apt: 'chromium', present: () => chromiumPath() !== undefined },
  // util-linux's setpriv: lk run as nobody, for whom a file can be read-only (root writes every file). Not needed where
  // the tests do not run as root: their own user meets read-only files as they are.
  setpriv: { apt: 'util-linux', present: () => process.getuid?.() !== 0 || onPath('setpriv') },
  // Apprise's command: lk notify hands it the schemes lk does not send itself, and its json:// body is lk's reference.
  // systemd's unit checker: the units lk schedule writes, verified as systemd reads them.
  'systemd-analyze': { apt: 'systemd', present: () => onPath('systemd-analyze') },
  apprise: { apt: 'apprise', present: () => onPath('apprise') },
  'python3-feedparser': {
    apt: 'python3-feedparser',
    // Debian's python modules load in Debian's own python3, not in whichever python3 is first on PATH.
    present: () => existsSync(DEBIAN_PYTHON) && spawnSync(DEBIAN_PYTHON, ['-c', 'import feedparser'], { stdio: 'ignore' }).status === 0,
  },
} as const;

export type OutsideTool = keyof typeof OUTSIDE_TOOLS;

/** The python3 that Debian's python3-* packages install into. */
export const DEBIAN_PYTHON = '/usr/bin/python3';

/** The marker a skipped suite's name carries; the skip summary reads it back. */
export const SKIP_MARKER = 'skipped, needs:';

const seen = new Map<OutsideTool, boolean>();

/** Whether the tool is on this machine (looked up once per test file). */
export function hasTool(tool: OutsideTool): boolean {
  let present = seen.get(tool);
  if (present === undefined) {
    present = OUTSIDE_TOOLS[tool].present();
    seen.set(tool, present);
  }
  return present;
}

/** Of these tools, the ones missing here. */
export function missingTools(tools: readonly OutsideTool[]): OutsideTool[] {
  return tools.filter((tool) => !hasTool(tool));
}

/**
 * Debian's chromium, where it is installed: tests drive it headless through playwright-core, and download none. The
 * browser itself first: Debian's /usr/bin/chromium is a shell script that needs grep and more on PATH, which a machine
 * with Node alone (.ci/without-tools) does not have.
 */
export function chromiumPath(): string | undefined {
  return ['/usr/lib/chromium/chromium', '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => isExecutable(path));
}

/** The flags every test starts chromium with (offline: no DNS query leaves the machine), shared with scripts/screenshots.mjs. */
export const CHROMIUM_ARGS: string[] = SHARED_CHROMIUM_ARGS as string[];

/**
 * A describe block that needs outside tools: run as usual where they are all present; where one is missing, skipped
 * with the tools named (`name [skipped, needs: tmux]`), or, under LK_REQUIRE_OUTSIDE_TOOLS=1 (CI), one failing test
 * that says which tool is missing.
 */
export function describeWith(tools: readonly OutsideTool[], name: string, body: () => void): void {
  const missing = missingTools(tools);
  if (missing.length === 0) {
    describe(name, body);
  } else if (process.env.LK_REQUIRE_OUTSIDE_TOOLS === '1') {
    describe(name, () => {
      it(`has its outside tools (LK_REQUIRE_OUTSIDE_TOOLS=1)`, () => {
        throw new Error(`missing ${missing.join(', ')}: apt-get install ${missing.map((tool) => OUTSIDE_TOOLS[tool].apt).join(' ')}`);
      });
    });
  } else {
    describe.skip(`${name} [${SKIP_MARKER} ${missing.join(', ')}]`, body);
  }
}

function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && isExecutable(join(dir, command)));
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
