import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { LkError } from '../util/errors.js';
import { onInterrupt } from '../util/interrupt.js';

/** The streams a run has: the process's own, or a test's. */
export interface ChildStreams {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
}

/**
 * Runs a program (an extension, `sh` for a shell alias) in the run's place: on the terminal itself when the run's
 * streams are the process's own, else through pipes into them; resolves to its exit code, 128 + the signal's number
 * when a signal ended it (as a shell reports it). `file` is an absolute path (src/util/executable.ts finds it).
 *
 * The program ends with lk: when SIGTERM, SIGINT or SIGHUP ends lk (src/cli.ts runs the interrupt cleanups), SIGTERM
 * goes to the program and to whatever it started. Away from a terminal the program leads a process group of its own,
 * and the signal goes to that group: a shell that waits for a child (`sh -c 'lk other; echo done'`) dies on SIGTERM
 * without passing it on, and its child, an lk or a `sleep`, would be left running. On a terminal it stays in lk's
 * group, the terminal's foreground one, where Ctrl-C reaches all of them already and where a program in a group of
 * its own could not read the terminal.
 */
export function runChild(file: string, args: readonly string[], env: NodeJS.ProcessEnv, streams: ChildStreams): Promise<number> {
  const own = (stream: unknown, mine: unknown) => stream === mine;
  const stdio = [
    own(streams.stdin, process.stdin) ? 'inherit' : 'pipe',
    own(streams.stdout, process.stdout) ? 'inherit' : 'pipe',
    own(streams.stderr, process.stderr) ? 'inherit' : 'pipe',
  ] as const;
  const onTerminal = [streams.stdin, streams.stdout, streams.stderr].some((stream) => (stream as { isTTY?: boolean }).isTTY === true);
  // (Windows has no process groups to signal: there the program alone is ended.)
  const ownGroup = !onTerminal && process.platform !== 'win32';
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: [...stdio], detached: ownGroup });
    const stopWithLk = onInterrupt(() => {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      if (ownGroup) process.kill(-child.pid, 'SIGTERM');
      else child.kill('SIGTERM');
    });
    if (child.stdin) {
      // A program that does not read its input closes the pipe first: no failure of the run.
      child.stdin.on('error', () => {});
      streams.stdin.pipe(child.stdin);
    }
    child.stdout?.pipe(streams.stdout, { end: false });
    child.stderr?.pipe(streams.stderr, { end: false });
    child.on('error', (error) => {
      stopWithLk();
      reject(new LkError(`cannot run ${file}: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      stopWithLk();
      resolve(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0));
    });
  });
}
