import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { makeProgram } from '../../src/cli.js';
import { COMMANDS, commandsFor } from '../../src/commands/index.js';

const named = (args: string[]) => commandsFor(args).map((command) => command.name);
const ALL = COMMANDS.map((command) => command.name);

describe('the command table (src/commands/index.ts)', () => {
  it.each(COMMANDS)('$name: its module registers exactly the command of that name', async ({ name, load }) => {
    const program = new Command('lk');
    (await load())(program);
    expect(program.commands.map((command) => command.name())).toEqual([name]);
  });

  it('the whole program holds every command of the table, in its order, and help', async () => {
    const program = await makeProgram();
    expect(program.commands.map((command) => command.name())).toEqual([...ALL, 'help']);
  });

  it('a run loads the command its line names, after any global flag and its value', () => {
    expect(named(['whoami'])).toEqual(['whoami']);
    expect(named(['library', '--limit', '20'])).toEqual(['library']);
    expect(named(['--profile', 'sync', 'library'])).toEqual(['library']);
    expect(named(['--format=json', '-q', '--lang', 'en', 'lists', 'show', '3'])).toEqual(['lists']);
    expect(named(['-v', '--fields', 'id', 'history'])).toEqual(['history']);
    expect(named(['help', 'sync'])).toEqual(['sync']);
    expect(named(['--json', 'help', '--profile', 'work', 'feed'])).toEqual(['feed']);
  });

  it('a line that names no command of lk loads them all (help, suggestions)', () => {
    expect(named([])).toEqual(ALL);
    expect(named(['--help'])).toEqual(ALL);
    expect(named(['help'])).toEqual(ALL);
    expect(named(['librari'])).toEqual(ALL);
    expect(named(['help', 'nothing'])).toEqual(ALL);
    expect(named(['--profile'])).toEqual(ALL);
  });

  it("a run's program holds its own command and help alone", async () => {
    const program = await makeProgram(undefined, ['node', 'lk', '--json', 'whoami']);
    expect(program.commands.map((command) => command.name())).toEqual(['whoami', 'help']);
  });
});
