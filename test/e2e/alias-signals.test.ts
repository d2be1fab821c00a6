import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { describeWith } from '../support/outside-tools.js';
import { tempDir } from '../support/temp-dir.js';
import { until } from '../support/until.js';
import { lkShellCommand, lkSpawnArgs, outputOf } from './harness.js';

/**
 * Issue 56: an extension or a shell alias ends with the lk that runs it. SIGTERM to lk alone (kill PID, as a
 * supervisor or a script sends it) used to leave the extension, or the chain of sh and lk processes a shell alias
 * starts, running; every one of them, down to a `sleep` in the background, is gone now.
 */

/** Whether a process runs (a zombie waiting for its parent to reap it has ended). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** What a test started, killed at its end if it is still there (the test has failed then). */
let started: number[] = [];
afterEach(() => {
  for (const pid of started) if (alive(pid)) process.kill(pid, 'SIGKILL');
  started = [];
});

/** A config folder, and a bin folder with `lk` (this build) and the test's extensions. */
function home(): { dir: string; bin: string; env: NodeJS.ProcessEnv } {
  const dir = tempDir('lk-alias-signals-');
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'lk'), `#!/bin/sh\nexec ${lkShellCommand()} "$@"\n`);
  chmodSync(join(bin, 'lk'), 0o755);
  const env = {
    PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    LK_CONFIG_DIR: join(dir, 'config'),
  };
  return { dir, bin, env };
}

/** Starts lk, waits until `pids` lists the processes it started, signals lk, and expects its exit code and none of them left. */
async function signalled(args: string[], env: NodeJS.ProcessEnv, pids: string, signal: NodeJS.Signals, code: number): Promise<void> {
  const lk = spawn(...lkSpawnArgs(args), { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const ended = outputOf(lk);
  await until(() => existsSync(pids));
  const children = readFileSync(pids, 'utf8').trim().split(/\s+/).map(Number);
  started = [lk.pid!, ...children];
  expect(children.every(alive)).toBe(true);
  lk.kill(signal);
  expect((await ended).code).toBe(code);
  await until(() => !children.some(alive));
}

describeWith(['sh'], 'an extension or a shell alias ended with lk', () => {
  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)('%s to lk: a long-running extension, and the sleep it started, end too', async (signal, code) => {
    const { dir, bin, env } = home();
    const pids = join(dir, 'pids');
    writeFileSync(join(bin, 'lk-slow'), `#!/bin/sh\nsleep 1000 &\nprintf '%s %s\\n' "$$" "$!" > '${pids}.tmp'\nmv '${pids}.tmp' '${pids}'\nwait\n`);
    chmodSync(join(bin, 'lk-slow'), 0o755);
    await signalled(['slow'], env, pids, signal, code);
  });

  it('SIGTERM to lk: a shell alias that runs lk with another shell alias ends whole, no lk left', async () => {
    const { dir, env } = home();
    const pids = join(dir, 'pids');
    const set = (name: string, expansion: string) =>
      outputOf(spawn(...lkSpawnArgs(['alias', 'set', name, expansion]), { env, stdio: ['ignore', 'pipe', 'pipe'] }));
    // outer's sh waits for the inner lk (it does not exec it); inner records that lk ($PPID), its own sh and a sleep.
    expect((await set('outer', `!printf '%s ' "$$" > '${pids}.outer'; lk inner; echo after`)).code).toBe(0);
    expect(
      (
        await set(
          'inner',
          `!sleep 1000 & printf '%s %s %s\\n' "$(cat '${pids}.outer')" "$PPID $$" "$!" > '${pids}.tmp'; mv '${pids}.tmp' '${pids}'; wait`,
        )
      ).code,
    ).toBe(0);
    await signalled(['outer'], env, pids, 'SIGTERM', 143);
  });
});

describeWith(['sh', 'script'], 'an extension ended with lk on a terminal', () => {
  it('SIGTERM to lk alone (not to the terminal’s group): the extension, in lk’s group, gets it too', async () => {
    const { dir, bin, env } = home();
    const pids = join(dir, 'pids');
    // The extension becomes the sleep ($$ stays): lk ($PPID) and it are all there is. It ignores SIGHUP, which the
    // terminal sends its group once lk, the session's last other process, is gone: only lk's SIGTERM ends it.
    writeFileSync(
      join(bin, 'lk-slow'),
      `#!/bin/sh\ntrap '' HUP\nprintf '%s %s\\n' "$PPID" "$$" > '${pids}.tmp'\nmv '${pids}.tmp' '${pids}'\nexec sleep 1000\n`,
    );
    chmodSync(join(bin, 'lk-slow'), 0o755);
    const terminal = spawn('script', ['-qec', lkShellCommand(['slow']), '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const ended = outputOf(terminal);
    await until(() => existsSync(pids));
    const [lk, extension] = readFileSync(pids, 'utf8').trim().split(/\s+/).map(Number) as [number, number];
    started = [terminal.pid!, lk, extension];
    expect(alive(extension)).toBe(true);
    process.kill(lk, 'SIGTERM');
    await ended;
    await until(() => !alive(lk) && !alive(extension));
  });
});
