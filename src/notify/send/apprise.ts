import { spawn } from 'node:child_process';
import { closeSync, openSync, readSync } from 'node:fs';
import { withoutKey } from '../../util/without-key.js';
import { findExecutable } from '../../util/executable.js';
import type { Sender } from './outcome.js';

/**
 * The long tail of services: a scheme lk does not send itself goes to the `apprise` command on PATH. Nothing of the
 * message or the URL is on its command line, where `ps` shows it to every user: the URL is in its environment
 * (APPRISE_URLS), the body on its stdin, and the title (apprise takes it on argv only) in the environment too, put
 * into apprise's argv inside its own Python (which `ps` does not see). lk's key never reaches it.
 */

/** The apprise that would run (src/util/executable.ts: absolute PATH folders only). */
export function findApprise(env: NodeJS.ProcessEnv): string | undefined {
  return findExecutable('apprise', env);
}

export function appriseOnPath(env: NodeJS.ProcessEnv): boolean {
  return findApprise(env) !== undefined;
}

/** Runs the apprise script in its own interpreter, its argv set there from the environment (never on lk's spawn). */
const WITH_TITLE = "import os,sys,runpy;p=sys.argv[1];sys.argv=[p,'-v','-t',os.environ.pop('TITLE_FROM_LK')];runpy.run_path(p,run_name='__main__')";

/**
 * The Python that runs a script, from its #! line: an absolute one (Debian's /usr/bin/python3, pipx's venv) or
 * `/usr/bin/env python3` (looked up as apprise is); undefined when it is no Python script.
 */
function pythonOf(script: string, env: NodeJS.ProcessEnv): string | undefined {
  const head = Buffer.alloc(256);
  let fd: number | undefined;
  try {
    fd = openSync(script, 'r');
    const line = head
      .subarray(0, readSync(fd, head, 0, head.length, 0))
      .toString('utf8')
      .split('\n')[0]!;
    const named = /^#!\s*(\/\S*python[0-9.]*)\s*$/.exec(line)?.[1];
    if (named !== undefined) return named;
    const viaEnv = /^#!\s*\/\S*\/env\s+(python[0-9.]*)\s*$/.exec(line)?.[1];
    return viaEnv === undefined ? undefined : findExecutable(viaEnv, env);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** What apprise is given of lk's environment: the user's, without lk's key or the file that holds it. */
function appriseEnv(env: NodeJS.ProcessEnv, url: string, title: string): NodeJS.ProcessEnv {
  return { ...withoutKey(env), APPRISE_URLS: url, TITLE_FROM_LK: title };
}

/** What apprise said was wrong (-v: its warnings and errors), one line, without its time stamps. */
function lastWords(said: string): string {
  const lines = said.split(/\r?\n/).filter(Boolean);
  const logged = lines
    .filter((line) => / - (WARNING|ERROR|CRITICAL) - /.test(line))
    .map((line) => line.replace(/^.* - (WARNING|ERROR|CRITICAL) - /, ''));
  const words = (logged.length > 0 ? logged : lines.slice(-1)).map((line) => line.trim()).join(' / ');
  return words.length > 300 ? `${words.slice(0, 299)}…` : words;
}

export const sendApprise: Sender = (target, message, options) =>
  new Promise((resolve) => {
    const apprise = findApprise(options.env);
    if (apprise === undefined) return resolve({ ok: false, error: 'no apprise command on PATH (absolute folders only)' });
    const python = pythonOf(apprise, options.env);
    const [command, args] = python ? [python, ['-c', WITH_TITLE, apprise]] : [apprise, ['-v', '-t', message.title]];
    const child = spawn(command, args, {
      env: appriseEnv(options.env, target.raw, message.title),
      stdio: ['pipe', 'pipe', 'pipe'],
      signal: options.signal,
      timeout: options.timeoutMs,
      killSignal: 'SIGKILL',
    });
    // apprise -v logs its warnings on stdout, Click its usage errors on stderr: both are its words.
    let said = '';
    const hear = (chunk: string) => (said = (said + chunk).slice(-4000));
    child.stdout.setEncoding('utf8').on('data', hear);
    child.stderr.setEncoding('utf8').on('data', hear);
    child.stdin.on('error', () => {}); // apprise ended before reading the body: its exit says why
    child.stdin.end(message.body);
    child.on('error', (error) => resolve({ ok: false, error: `apprise: ${error.message}` }));
    child.on('close', (code, signal) => {
      if (code === 0) return resolve({ ok: true });
      const last = lastWords(said);
      const why = signal === null ? `exited with ${code}` : signal === 'SIGKILL' ? 'ran past the timeout (--timeout)' : `stopped by ${signal}`;
      resolve({ ok: false, error: `apprise ${why}${last === '' ? '' : `: ${last}`}` });
    });
  });

/**
 * Whether apprise takes the target's URL (its own --dry-run: nothing sent): undefined when it does, else its reason
 * (`Unparseable URL`), the URL's secrets left for the caller to hide. For lk notify --dry-run.
 */
export function appriseRefusal(raw: string, options: { env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<string | undefined> {
  return new Promise((resolve) => {
    const apprise = findApprise(options.env);
    if (apprise === undefined) return resolve('no apprise command on PATH (absolute folders only)');
    const child = spawn(apprise, ['--dry-run'], {
      env: appriseEnv(options.env, raw, ''),
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: options.timeoutMs,
      killSignal: 'SIGKILL',
    });
    let said = '';
    const hear = (chunk: string) => (said = (said + chunk).slice(0, 4000));
    child.stdout.setEncoding('utf8').on('data', hear);
    child.stderr.setEncoding('utf8').on('data', hear);
    child.on('error', (error) => resolve(`apprise: ${error.message}`));
    child.on('close', (code) => {
      const first = said.split(/\r?\n/).find((line) => / - ERROR - /.test(line));
      resolve(code === 0 ? undefined : (first?.replace(/^.* - ERROR - /, '') ?? `apprise --dry-run exited with ${code}`));
    });
  });
}
