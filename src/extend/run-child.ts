import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { LkError } from '../util/errors.js';

/** The streams a run has: the process's own, or a test's. */
export interface ChildStreams {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
}

/**
 * Runs a program (an extension, `sh` for a shell alias) in the run's place: on the terminal itself when the run's
 * streams are the process's own, else through pipes into them; resolves to its exit code, 128 + the signal's number
 * when a signal ended it (as a shell reports it).
 */
export function runChild(file: string, args: readonly string[], env: NodeJS.ProcessEnv, streams: ChildStreams): Promise<number> {
  const own = (stream: unknown, mine: unknown) => stream === mine;
  const stdio = [
    own(streams.stdin, process.stdin) ? 'inherit' : 'pipe',
    own(streams.stdout, process.stdout) ? 'inherit' : 'pipe',
    own(streams.stderr, process.stderr) ? 'inherit' : 'pipe',
  ] as const;
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: [...stdio] });
    if (child.stdin) {
      // A program that does not read its input closes the pipe first: no failure of the run.
      child.stdin.on('error', () => {});
      streams.stdin.pipe(child.stdin);
    }
    child.stdout?.pipe(streams.stdout, { end: false });
    child.stderr?.pipe(streams.stderr, { end: false });
    child.on('error', (error) => reject(new LkError(`cannot run ${file}: ${error.message}`)));
    child.on('close', (code, signal) => resolve(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0)));
  });
}
