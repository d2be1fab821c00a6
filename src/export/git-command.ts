import { spawn } from 'node:child_process';
import { LkError } from '../util/errors.js';

/**
 * The system's `git`, through its command line: spawned with an argument array (never a shell), in one repository,
 * with the environment's own GIT_DIR and the like left out (a hook or an alias must not point us at another repo).
 */

const NOT_OURS = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_NAMESPACE'];

export class Git {
  private readonly env: NodeJS.ProcessEnv;

  constructor(
    readonly dir: string,
    env: NodeJS.ProcessEnv,
  ) {
    this.env = { ...env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' };
    for (const name of NOT_OURS) delete this.env[name];
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
    const child = spawn('git', ['-C', this.dir, ...args], { env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
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
      const child = spawn('git', ['-C', this.dir, ...args], { env: { ...this.env, ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] });
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

/** Throws gitMissing() when there is no git to run. */
export async function requireGit(env: NodeJS.ProcessEnv): Promise<void> {
  await new Git('.', env).run(['--version']);
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
