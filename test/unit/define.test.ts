import { PassThrough } from 'node:stream';
import { TEXT } from '../../src/output/shape.js';
import { Command } from 'commander';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { addCommand, attachFactory, defineCommand, operand } from '../../src/commands/define.js';
import { flag } from '../../src/commands/flags.js';
import { PAGING_FLAGS, PHASES } from '../../src/commands/options.js';
import type { Factory } from '../../src/context.js';

/** A program of one command, with streams that go nowhere and a config that is never read. */
function programWith(add: (program: Command) => void): Command {
  const factory: Factory = {
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    stdin: new PassThrough(),
    env: {},
    argv: [],
    now: () => 0,
    sleep: async () => {},
  };
  const program = new Command('lk').exitOverride();
  attachFactory(program, factory);
  add(program);
  return program;
}

describe('defineCommand', () => {
  it('hands run the options and operands typed from the declaration, shared groups included', async () => {
    let seen: unknown;
    const command = defineCommand({
      name: 'try',
      description: 'a command for the test',
      flags: { phase: flag.choice('--phase <phase>', 'a phase', PHASES), ...PAGING_FLAGS },
      operands: [operand('<id>', 'an id'), operand('[more...]', 'the rest')],
      storedConfig: 'unread',
      output: TEXT,
      async run(_ctx, _out, options, [id, more]) {
        expectTypeOf(options.phase).toEqualTypeOf<(typeof PHASES)[number] | undefined>();
        expectTypeOf(options.all).toEqualTypeOf<boolean | undefined>();
        expectTypeOf(id).toEqualTypeOf<string>();
        expectTypeOf(more).toEqualTypeOf<string[]>();
        seen = { phase: options.phase, limit: options.limit, all: options.all, id, more };
      },
    });
    await programWith((program) => addCommand(program, command)).parseAsync(['try', 'e1', 'a', 'b', '--phase', 'done', '--limit', '5', '--all'], {
      from: 'user',
    });
    expect(seen).toEqual({ phase: 'DONE', limit: '5', all: true, id: 'e1', more: ['a', 'b'] });
  });

  it('refuses a flag declared under another name than the one commander gives its value', () => {
    const command = defineCommand({
      name: 'try',
      description: 'a command for the test',
      flags: { age: flag.text('--max-age <duration>', 'how old') },
      output: TEXT,
      async run() {},
    });
    expect(() => programWith((program) => addCommand(program, command))).toThrow(/--max-age <duration> is declared as "age"/);
  });
});
