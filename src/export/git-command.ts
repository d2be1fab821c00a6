import { spawn } from 'node:child_process';
import { LkError } from '../util/errors.js';
import { findExecutable } from '../util/executable.js';

/**
 * The system's `git`, through its command line, in one repository, with the environment's own GIT_DIR and the like
 * left out (a hook or an alias must not point us at another repo). Nothing of the repository's runs: its hooks
 * (core.hooksPath at a path with none), its fsmonitor, and the clean/smudge/process filters its config defines
 * (each replaced by `cat`, which changes nothing) are off through command-line configuration, which wins over every
 * file's. git runs under umask 077, so that what it writes (objects, the index, the work tree's files) is the
 * user's alone: `sh -c 'umask 077 && exec "$0" "$@"' /usr/bin/git …`, the arguments passed as arguments, never as
 * shell text. Both sh and git are found in PATH's absolute folders (src/util/executable.ts): never a `./git` of the
 * current folder, which an empty PATH entry would name.
 */

const NOT_OURS = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_NAMESPACE'];

/** Configuration given to every git run: the repository's own programs off, no automatic gc or maintenance. */
const QUIET_GIT = ['core.hooksPath=/dev/null', 'core.fsmonitor=false', 'gc.auto=0', 'maintenance.auto=false'];
const UNDER_UMASK = 'umask 077 && exec "$0" "$@"';

export class Git {
  private readonly env: NodeJS.ProcessEnv;
  /** `-c` pairs turning off the filters the repository's config defines (filtersOff() finds them). */
  private filterConfig: string[] = [];

  constructor(
    readonly dir: string,
    env: NodeJS.ProcessEnv,
  ) {
    this.env = { ...env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' };
    for (const name of NOT_OURS) delete this.env[name];
  }

  /** Every filter driver the configuration defines (filter.NAME.clean and the like), replaced by `cat` from now on. */
  async filtersOff(): Promise<void> {
    const listed = await this.attempt(['config', '--name-only', '--get-regexp', '^filter\\.']);
    const drivers = new Set(
      listed.stdout
        .split('\n')
        .filter(Boolean)
        .map((name) => name.slice('filter.'.length, name.lastIndexOf('.'))),
    );
    this.filterConfig = [...drivers].flatMap((name) =>
      [`filter.${name}.clean=cat`, `filter.${name}.smudge=cat`, `filter.${name}.process=`, `filter.${name}.required=false`].flatMap((pair) => [
        '-c',
        pair,
      ]),
    );
  }

  /** `sh` and the arguments that make it run git under umask 077 (gitMissing() when there is no git). */
  private command(args: string[]): [string, string[]] {
    const git = findExecutable('git', this.env);
    if (git === undefined) throw gitMissing();
    const sh = findExecutable('sh', this.env);
    if (sh === undefined) throw new LkError('lk export --git runs git through sh, and there is no sh in the absolute folders of PATH');
    return [sh, ['-c', UNDER_UMASK, git, '-C', this.dir, ...QUIET_GIT.flatMap((pair) => ['-c', pair]), ...this.filterConfig, ...args]];
  }

  /** stdout of `git -C dir ARGS`; a non-zero exit throws with git's own first line. */
  async run(args: string[], options: { input?: Iterable<string>; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
    const result = await this.attempt(args, options);
    if (result.code !== 0) {
      const said = result.stderr.trim().split('\n')[0] ?? '';
      throw new LkError(`git ${args[0]} failed in ${this.dir}${said ? `: ${said}` : ` (exit ${result.code})`}`);
    }
    return result.stdout;
  }

  /** stdout of `git -C dir ARGS` as it comes (a blob of 150 MB is not held whole); a non-zero exit throws at the end. */
  async *stream(args: string[]): AsyncGenerator<Buffer> {
    const child = spawn(...this.command(args), { env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const closed = new Promise<number>((resolve, reject) => {
      child.on('error', (error: NodeJS.ErrnoException) => reject(error.code === 'ENOENT' ? gitMissing() : error));
      child.on('close', (code) => resolve(code ?? 1));
    });
    try {
      for await (const chunk of child.stdout) yield chunk as Buffer;
      const code = await closed;
      if (code !== 0) throw new LkError(`git ${args[0]} failed in ${this.dir}: ${stderr.trim().split('\n')[0] ?? ''}`);
    } finally {
      if (child.exitCode === null) child.kill();
    }
  }

  /** Exit code and output of `git -C dir ARGS`, whatever the code. */
  attempt(
    args: string[],
    options: { input?: Iterable<string>; env?: NodeJS.ProcessEnv } = {},
  ): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      const [sh, argv] = this.command(args);
      const child = spawn(sh, argv, { env: { ...this.env, ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.on('error', (error: NodeJS.ErrnoException) => reject(error.code === 'ENOENT' ? gitMissing() : error));
      child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
      child.stdin.on('error', () => {}); // git that exits early says why on stderr; EPIPE says nothing more
      void feed(child.stdin, options.input);
    });
  }
}

/** Writes the parts with back-pressure (a 100,000-entry library is ~150 MB pretty-printed), then ends stdin. */
async function feed(stdin: NodeJS.WritableStream, input: Iterable<string> | undefined): Promise<void> {
  if (input) {
    let buffered: string[] = [];
    let size = 0;
    for (const part of input) {
      buffered.push(part);
      size += part.length;
      if (size < 1 << 20) continue;
      if (!stdin.write(buffered.join(''))) await drained(stdin);
      buffered = [];
      size = 0;
    }
    if (buffered.length > 0) stdin.write(buffered.join(''));
  }
  stdin.end();
}

/** Throws gitMissing() when there is no git to run (asked directly: through sh, a missing git is only exit 127). */
export function requireGit(env: NodeJS.ProcessEnv): Promise<void> {
  const git = findExecutable('git', env);
  if (git === undefined) return Promise.reject(gitMissing());
  return new Promise((resolve, reject) => {
    const child = spawn(git, ['--version'], { env, stdio: 'ignore' });
    child.on('error', (error: NodeJS.ErrnoException) => reject(error.code === 'ENOENT' ? gitMissing() : error));
    child.on('close', () => resolve());
  });
}

/** Once the stream wants more, or is closed (git ended early: its exit code says why). */
function drained(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

export function gitMissing(): LkError {
  return new LkError(
    'lk export --git needs git, and there is no git on PATH',
    1,
    'Install git (Debian/Ubuntu: apt install git; Fedora: dnf install git; macOS: xcode-select --install or brew install git).',
  );
}
