import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { lkShellCommand, startTestBed, tempHome, type TestBed } from './harness.js';
import { describeWith } from '../support/outside-tools.js';

let bed: TestBed;

beforeAll(async () => {
  bed = await startTestBed({ entries: 10 });
});

afterAll(async () => {
  await bed.sandbox.close();
});

/**
 * `lk auth login` in a real pseudo-terminal (util-linux `script`), typing `typed` once the question is on the screen.
 * Returns everything the terminal showed.
 */
function loginAtTerminal(configDir: string, typed: string): Promise<{ code: number | null; screen: string }> {
  const command = `exec ${lkShellCommand(['auth', 'login', '--base-url', bed.sandbox.url])}`;
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, LANG: 'C.UTF-8', TERM: 'xterm-256color', SHELL: '/bin/sh', LK_CONFIG_DIR: configDir };
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let screen = '';
    let typedYet = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      screen += chunk;
      if (!typedYet && screen.includes('(input hidden): ')) {
        typedYet = true;
        // A moment for the raw mode to be in place, as for a person who reads the question first.
        setTimeout(() => child.stdin.write(typed), 150);
      }
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, screen });
    });
  });
}

describeWith(['script'], 'lk auth login at a terminal', () => {
  it('asks for the key with hidden input: the terminal never shows it, and it is stored 0600', async () => {
    const key = bed.sandbox.key('full');
    const home = tempHome();
    const { code, screen } = await loginAtTerminal(home.configDir, `${key}\r`);
    expect(code).toBe(0);
    expect(screen).toContain('(input hidden)');
    expect(screen).not.toContain(key);
    expect(screen).not.toContain(key.slice(3, 20));
    const file = join(home.configDir, 'config.json');
    expect(readFileSync(file, 'utf8')).toContain(key);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('Ctrl-C at the question stores nothing and exits 130', async () => {
    const home = tempHome();
    const { code } = await loginAtTerminal(home.configDir, 'lk_partial\u0003');
    expect(code).toBe(130);
    expect(() => statSync(join(home.configDir, 'config.json'))).toThrow();
  });
});
