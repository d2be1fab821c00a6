import { spawn } from 'node:child_process';
import { delimiter, join } from 'node:path';
import { accessSync, constants } from 'node:fs';
import type { Sender } from './outcome.js';

/**
 * The long tail of services: a scheme lk does not send itself goes to the `apprise` command on PATH, the URL in its
 * environment (APPRISE_URLS), never on its command line where `ps` shows it to every user.
 */
export function appriseOnPath(env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? '').split(delimiter).some((dir) => {
    if (dir === '') return false;
    try {
      accessSync(join(dir, 'apprise'), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

export const sendApprise: Sender = (target, message, options) =>
  new Promise((resolve) => {
    const child = spawn('apprise', ['-t', message.title, '-b', message.body], {
      env: { ...options.env, APPRISE_URLS: target.url.href },
      stdio: ['ignore', 'ignore', 'pipe'],
      signal: options.signal,
      timeout: options.timeoutMs,
    });
    let said = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (said = (said + chunk).slice(-2000)));
    child.on('error', (error) => resolve({ ok: false, error: `apprise: ${error.message}` }));
    child.on('close', (code, signal) => {
      if (code === 0) return resolve({ ok: true });
      const last = said.trim().split('\n').pop() ?? '';
      const why = signal === null ? `exited with ${code}` : `stopped by ${signal}`;
      resolve({ ok: false, error: `apprise ${why}${last === '' ? '' : `: ${last}`}` });
    });
  });
