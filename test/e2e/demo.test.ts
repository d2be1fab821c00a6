import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const DEMO = fileURLToPath(new URL('../../scripts/demo.mjs', import.meta.url));

function runDemo(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DEMO], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, LANG: 'C.UTF-8' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('npm run demo', () => {
  it('runs every step against the sandbox: real output, lk found by name in pipelines, the sandbox stopped quietly', async () => {
    const { code, output } = await runDemo();
    expect(code).toBe(0);
    expect(output).toMatch(/Sandbox running at http:\/\/127\.0\.0\.1:\d+/);
    expect(output).not.toMatch(/command not found|interrupted|undefined/);
    // The pipeline counts the whole library by phase: four phases, each with a count.
    expect(output).toMatch(/^\s+\d+ DONE$/m);
    expect(output).toMatch(/^\s+\d+ PLANNED$/m);
    // The last step is meant to fail: a disabled domain exits 4, naming it.
    expect(output).toContain('GAMES domain is disabled');
    expect(output).toContain('(exit 4)');
    // Piped to a file, as here: plain text, no escape codes.
    expect(output).not.toContain('\u001b');
    // It ends saying how to go on.
    expect(output).toMatch(/To go on:\n {2}npm link .*npx lk/);
  }, 60_000);
});
