import { spawn } from 'node:child_process';
import { withoutKey } from '../util/without-key.js';
import { findExecutable } from '../util/executable.js';
import { LkError } from '../util/errors.js';

/** What a scheduler's tool (systemctl, crontab) answered. */
export interface ToolAnswer {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A tool found on PATH (absolute folders only, like every program lk starts), or undefined. */
export function findTool(name: 'systemctl' | 'crontab', env: NodeJS.ProcessEnv): string | undefined {
  return findExecutable(name, env);
}

/** No scheduler's tool is given long: one that hangs (a bus that never answers) counts as one that failed. */
const TOOL_TIMEOUT_MS = 20_000;

/** Runs `file args` with `input` on its stdin; never throws for its exit status (a tool that cannot start is code 127). */
export function runTool(file: string, args: readonly string[], env: NodeJS.ProcessEnv, input = ''): Promise<ToolAnswer> {
  return new Promise((settle) => {
    const child = spawn(file, args, { env: withoutKey(env), stdio: ['pipe', 'pipe', 'pipe'], timeout: TOOL_TIMEOUT_MS });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error) => settle({ code: 127, stdout, stderr: stderr || error.message }));
    child.on('close', (code) => settle({ code: code ?? 1, stdout, stderr }));
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

/** A tool's failure as lk's one line (exit 1): what was asked, and the tool's own first line. */
export function toolFailed(what: string, answer: ToolAnswer): LkError {
  const said = answer.stderr.trim().split('\n')[0] || `exit ${answer.code}`;
  return new LkError(`${what} failed: ${said}`);
}
