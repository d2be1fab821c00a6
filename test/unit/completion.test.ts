import type { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { makeProgram } from '../../src/cli.js';
import { COMPLETION_SHELLS } from '../../src/completion/model.js';
import { completionScript } from '../../src/completion/generate.js';
import { completionTree, flagsAt, type CommandNode, type CompletionTree, type FlagSpec } from '../../src/completion/model.js';

const tree = completionTree(await makeProgram());

function node(path: string): CommandNode {
  const found = tree.nodes.find((candidate) => candidate.path.join(' ') === path);
  if (!found) throw new Error(`no command "${path}"`);
  return found;
}

function flag(at: CommandNode, long: string, within: CompletionTree = tree): FlagSpec | undefined {
  return flagsAt(within, at).find((candidate) => candidate.long === long);
}

function everyOption(command: Command): Array<{ command: Command; option: Option }> {
  return [...command.options.map((option) => ({ command, option })), ...command.commands.flatMap(everyOption)];
}

describe('the completion tree, read from the commander program', () => {
  it('has every visible command, and neither hidden commands nor the implicit help command', () => {
    const paths = tree.nodes.map((candidate) => candidate.path.join(' '));
    expect(paths).toEqual(
      expect.arrayContaining(['library', 'library list', 'library show', 'library history', 'profile achievements', 'completion']),
    );
    expect(paths).not.toContain('profile show');
    expect(paths).not.toContain('help');
  });

  it("gives a command its default subcommand's flags: `lk library --phase` is `lk library list --phase`", () => {
    expect(flag(node('library'), '--phase')?.value).toEqual(flag(node('library list'), '--phase')?.value);
  });

  it('takes the values of --phase, --domain, --sort, --order and --lang from the options’ own choices', async () => {
    const program = await makeProgram();
    const withChoices = everyOption(program).filter(({ option }) => option.argChoices && option.long !== '--format');
    expect(withChoices.map(({ option }) => option.long)).toEqual(expect.arrayContaining(['--phase', '--domain', '--sort', '--order', '--lang']));
    for (const { command, option } of withChoices) {
      const path: string[] = [];
      for (let at: Command | null = command; at?.parent; at = at.parent) path.unshift(at.name());
      const offered = tree.nodes.find((candidate) => candidate.path.join(' ') === path.join(' '));
      // Options of a hidden command are not offered.
      if (!offered) continue;
      expect(flag(offered, option.long!)?.value, `${path.join(' ')} ${option.long}`).toMatchObject({ kind: 'choices', choices: option.argChoices });
    }
  });

  it('offers --format ics on lk calendar only', () => {
    expect(flag(node('calendar'), '--format')?.value).toMatchObject({ choices: expect.arrayContaining(['ics']) });
    for (const other of tree.nodes.filter((candidate) => candidate.path.join(' ') !== 'calendar')) {
      expect(flag(other, '--format')?.value, other.path.join(' ')).toMatchObject({ choices: expect.not.arrayContaining(['ics']) });
    }
  });

  it('completes --profile from the stored profiles, and files and folders for --output and --output-dir', () => {
    expect(flag(node('library'), '--profile')?.value?.kind).toBe('profiles');
    expect(flag(node('export'), '--output')?.value?.kind).toBe('files');
    expect(flag(node('export'), '--output-dir')?.value?.kind).toBe('directories');
  });

  it('does not offer the hidden --profiles flag of lk completion', () => {
    expect(flag(node('completion'), '--profiles')).toBeUndefined();
  });

  it('takes the shells of lk completion from its argument choices', () => {
    expect(node('completion').operands).toEqual([{ name: 'shell', required: false, variadic: false, choices: COMPLETION_SHELLS }]);
  });
});

describe('completionScript', () => {
  it.each(COMPLETION_SHELLS)('%s: the same text every time for the same program', async (shell) => {
    expect(completionScript(await makeProgram(), shell)).toBe(completionScript(await makeProgram(), shell));
  });
});
