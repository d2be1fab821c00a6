import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { makeProgram } from '../../src/cli.js';
import { completionScript } from '../../src/completion/generate.js';
import { completionTree, flagNames, LOCAL_COMMANDS } from '../../src/completion/model.js';
import { psQuote } from '../../src/completion/powershell.js';

/**
 * The PowerShell script, checked in node: pwsh is not in Debian, so CI cannot run it (test/support/outside-tools.ts
 * turns a missing tool into a failure there), and these checks stand in for its parser: the script's strings,
 * brackets and hashtables are whole, and it holds the whole tree, as the other shells' scripts do.
 */

const program = await makeProgram();
const tree = completionTree(program);
const script = completionScript(program, 'powershell');

/** PowerShell's tokens as far as nesting goes: comments, '…' (with '' inside), "…" (with ` escapes and $( … )), brackets. */
function bracketProblems(text: string): string[] {
  const problems: string[] = [];
  const stack: { char: string; line: number }[] = [];
  const pairs: Record<string, string> = { ')': '(', '}': '{', ']': '[' };
  let line = 1;
  for (let at = 0; at < text.length; at++) {
    const char = text[at]!;
    if (char === '\n') line += 1;
    else if (char === '#') {
      while (at + 1 < text.length && text[at + 1] !== '\n') at += 1;
    } else if (char === "'") {
      const start = line;
      for (at += 1; ; at += 1) {
        if (at >= text.length) return [...problems, `a '…' string from line ${start} is not closed`];
        if (text[at] === '\n') line += 1;
        if (text[at] === "'" && text[at + 1] === "'") at += 1;
        else if (text[at] === "'") break;
      }
    } else if (char === '"') {
      const start = line;
      let depth = 0;
      for (at += 1; ; at += 1) {
        if (at >= text.length) return [...problems, `a "…" string from line ${start} is not closed`];
        const inner = text[at]!;
        if (inner === '\n') line += 1;
        if (inner === '`') at += 1;
        else if (inner === '$' && text[at + 1] === '(') {
          depth += 1;
          at += 1;
        } else if (inner === ')' && depth > 0) depth -= 1;
        else if (inner === '"' && depth === 0) break;
      }
    } else if ('({['.includes(char)) stack.push({ char, line });
    else if (')}]'.includes(char)) {
      const open = stack.pop();
      if (open?.char !== pairs[char]) problems.push(`line ${line}: ${char} closes ${open ? `${open.char} of line ${open.line}` : 'nothing'}`);
    }
  }
  return [...problems, ...stack.map((open) => `line ${open.line}: ${open.char} is not closed`)];
}

describe('lk completion powershell', () => {
  it('is what completions/lk.ps1 holds (npm run completions)', () => {
    const checkedIn = readFileSync(new URL('../../completions/lk.ps1', import.meta.url), 'utf8');
    expect(checkedIn, 'completions/lk.ps1 is stale: run `npm run completions` and commit the result').toBe(script);
  });

  it('parses: every string closed, every bracket and brace matched', () => {
    expect(bracketProblems(script)).toEqual([]);
    // The checker itself finds what it is there to find.
    expect(bracketProblems("@{ N = @('a'; }")).toEqual(['line 1: } closes ( of line 1', 'line 1: { is not closed']);
    expect(bracketProblems("'it''s")).toEqual(["a '…' string from line 1 is not closed"]);
  });

  it('registers one native completer for lk', () => {
    expect(script.match(/^Register-ArgumentCompleter .*$/gm)).toEqual(["Register-ArgumentCompleter -Native -CommandName 'lk' -ScriptBlock {"]);
    expect(script).toContain('param($wordToComplete, $commandAst, $cursorPosition)');
  });

  it('holds every command path once (hashtable keys are case-blind in PowerShell), with its subcommands and flags', () => {
    const keys = [...script.matchAll(/^ {8}('(?:[^']|'')*') = @\{$/gm)].map((match) => match[1]!.toLowerCase());
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.sort()).toEqual(tree.nodes.map((node) => psQuote(node.path.join(' ')).toLowerCase()).sort());
    for (const node of tree.nodes) {
      const start = script.indexOf(`        ${psQuote(node.path.join(' '))} = @{\n`);
      const block = script.slice(start, script.indexOf('\n        }\n', start));
      for (const sub of node.subcommands) expect(block, node.path.join(' ')).toContain(`N = @(${sub.names.map(psQuote).join(', ')})`);
      for (const flag of node.flags) expect(block, node.path.join(' ')).toContain(`N = @(${flagNames(flag).map(psQuote).join(', ')})`);
      for (const operand of node.operands) {
        if (operand.dynamic) expect(block).toContain(`A = @(${operand.dynamic.args.map(psQuote).join(', ')})`);
        if (operand.choices) expect(block).toContain(`W = @(${operand.choices.map(psQuote).join(', ')})`);
      }
    }
  });

  it('offers the global flags, the values of --format and --phase, profiles, ids, aliases and extensions', () => {
    for (const flag of tree.globals) expect(script).toContain(`N = @(${flagNames(flag).map(psQuote).join(', ')})`);
    expect(script).toContain("W = @('table', 'json', 'ndjson', 'csv', 'tsv')");
    expect(script).toContain("W = @('PLANNED', 'IN_PROGRESS', 'DONE', 'DROPPED')");
    expect(script).toContain("Ask @('completion', '--profiles')");
    expect(script).toContain("A = @('completion', '--ids', 'entries')");
    for (const local of LOCAL_COMMANDS) expect(script).toContain(`@(${local.args.map(psQuote).join(', ')})`);
  });

  it('quotes as PowerShell reads a literal string', () => {
    expect(psQuote("an entry's page")).toBe("'an entry''s page'");
    expect(psQuote('it\u2019s')).toBe("'it\u2019\u2019s'");
    expect(script).toContain("D = 'open an entry''s page in the web app in your browser (BROWSER), or print its URL'");
  });
});
