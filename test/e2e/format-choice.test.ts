import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { makeProgram } from '../../src/cli.js';
import { until } from '../support/until.js';
import { runLkInProcess, type RunResult } from './harness.js';

// Issue 46, one printer choice: the formats a command declares (its output shape) are the one list its --format
// accepts, its refusals name and (test/e2e/completion-suite.ts) completion offers.

/** Every command that runs (`lk library list`, not the group), with a word for each operand so that it parses. */
function leaves(command: Command, prefix: string[] = []): Array<{ path: string[]; operands: string[] }> {
  return command.commands.flatMap((sub) => {
    const path = [...prefix, sub.name()];
    if (sub.commands.length > 0) return leaves(sub, path);
    if (path.join(' ') === 'help') return [];
    return [{ path, operands: sub.registeredArguments.filter((a) => a.required).map((a) => a.argChoices?.[0] ?? 'x') }];
  });
}

/** Every format any command names, the listing's and the documents', and one that none writes. */
const CANDIDATES = ['table', 'json', 'ndjson', 'csv', 'tsv', 'plain', 'ics', 'atom', 'html', 'lines', 'svg', 'xml'];

/** A run refused before it starts (no key, no server: nothing can be sent): exit 2 and its one line. */
async function refused(args: string[]): Promise<string> {
  const result = await runLkInProcess(args, { env: { LK_API_KEY: undefined, LK_BASE_URL: 'http://127.0.0.1:9' } });
  expect(result.code, `lk ${args.join(' ')}: ${result.stderr}`).toBe(2);
  expect(result.stdout).toBe('');
  return result.stderr.trimEnd();
}

const PROGRAM = await makeProgram();

describe('each command: the formats its refusal names are exactly the ones its --format accepts', () => {
  for (const { path, operands } of leaves(PROGRAM)) {
    it(`lk ${path.join(' ')}`, async () => {
      const line = [...path, ...operands];
      // A format no command writes: the refusal names the command's own list (or, writing none, that it takes none).
      const refusal = await refused([...line, '--format', 'bogus']);
      const listed = /Allowed choices are (.+)\.$/.exec(refusal)?.[1]?.split(', ');
      if (!listed) expect(refusal).toMatch(/^lk: --format bogus does not apply to lk /);
      const named = listed ?? [];
      // Each format with a second one named beside it: one the command accepts gets as far as "choose one", the
      // choice made before the run; one it does not is refused for itself.
      const accepted: string[] = [];
      for (const format of CANDIDATES) {
        const other = format === 'tsv' ? '--csv' : '--tsv';
        const said = await refused([...line, '--format', format, other]);
        if (said.startsWith('lk: choose one output format')) accepted.push(format);
        else expect(said).toMatch(new RegExp(`^lk: (option '--format <format>' argument '${format}' is invalid|--format ${format} )`));
      }
      expect(accepted.sort()).toEqual([...named].sort());
    });
  }

  it('the listing commands keep their refusal, word for word', async () => {
    expect(await refused(['library', '--format', 'xml'])).toBe(
      "lk: option '--format <format>' argument 'xml' is invalid. Allowed choices are table, json, ndjson, csv, tsv.",
    );
    expect(await refused(['library', '--format', 'html'])).toBe('lk: --format html is only for lk report');
  });
});

describe('lk sandbox --format', () => {
  /** The sandbox run until its announcement is whole, then stopped. */
  async function announced(args: string[]): Promise<{ stdout: string; result: RunResult }> {
    const abort = new AbortController();
    let stdout = '';
    let ended: RunResult | undefined;
    const run = runLkInProcess(['sandbox', ...args], { signal: abort.signal, onStdout: (text) => (stdout = text) }).then(
      (result) => (ended = result),
    );
    await until(() => /\n$/.test(stdout) || ended !== undefined);
    abort.abort();
    return { stdout, result: await run };
  }

  it('lines is accepted, and is what it writes by default', async () => {
    const lines = await announced(['--format', 'lines']);
    expect(lines.result.code, lines.result.stderr).toBe(0);
    expect(lines.stdout).toMatch(/http:\/\/127\.0\.0\.1:\d+/);
    expect(() => JSON.parse(lines.stdout)).toThrow();
    const plain = await announced([]);
    expect(plain.stdout.replace(/:\d+/g, ':PORT')).toBe(lines.stdout.replace(/:\d+/g, ':PORT'));
  });

  it('--format json is its --json', async () => {
    const json = await announced(['--format', 'json']);
    expect(json.result.code, json.result.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) as unknown });
  });
});
