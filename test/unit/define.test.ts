import { PassThrough } from 'node:stream';
import { TEXT } from '../../src/output/shape.js';
import { Command } from 'commander';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { addCommand, attachFactory, defineCommand, operand } from '../../src/commands/define.js';
import { flag } from '../../src/commands/flags.js';
import { PAGING_FLAGS } from '../../src/commands/options.js';
import { PHASES } from '../../src/api/vocabulary.js';
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
        expectTypeOf(options.limit).toEqualTypeOf<number | undefined>();
        expectTypeOf(id).toEqualTypeOf<string>();
        expectTypeOf(more).toEqualTypeOf<string[]>();
        seen = { phase: options.phase, limit: options.limit, all: options.all, id, more };
      },
    });
    await programWith((program) => addCommand(program, command)).parseAsync(['try', 'e1', 'a', 'b', '--phase', 'done', '--limit', '5', '--all'], {
      from: 'user',
    });
    expect(seen).toEqual({ phase: 'DONE', limit: 5, all: true, id: 'e1', more: ['a', 'b'] });
  });

  it('parses a number, a duration and a date where the flag is declared: run gets the value, a bad one never reaches run', async () => {
    let seen: unknown;
    const command = defineCommand({
      name: 'try',
      description: 'a command for the test',
      flags: {
        keep: flag.count('--keep <n>', 'how many', 1, 9),
        maxAge: flag.duration('--max-age <duration>', 'how old'),
        since: flag.date('--since <date>', 'since when', 'start'),
      },
      storedConfig: 'unread',
      output: TEXT,
      async run(ctx, _out, options) {
        seen = { keep: options.keep, maxAge: options.maxAge, since: options.since?.at(ctx.now()) };
      },
    });
    const parse = (args: string[]) => programWith((program) => addCommand(program, command)).parseAsync(['try', ...args], { from: 'user' });
    await parse(['--keep', '3', '--max-age', '2h', '--since', '2026-01-31']);
    expect(seen).toEqual({ keep: 3, maxAge: 7_200_000, since: '2026-01-31' });
    // A relative date is read at the run's time (this program's clock says 0: 1970-01-01).
    await parse(['--since', 'today']);
    expect((seen as { since: string }).since).toMatch(/^1970-01-01/);
    seen = undefined;
    await expect(parse(['--keep', '10'])).rejects.toThrow('invalid --keep "10": expected a whole number from 1 to 9');
    await expect(parse(['--max-age', 'soon'])).rejects.toThrow('invalid --max-age "soon": expected a duration such as 30m, 6h or 2d');
    await expect(parse(['--since', '2026-02-30'])).rejects.toThrow(/^invalid --since "2026-02-30": expected a date like 2026-01-31/);
    expect(seen).toBeUndefined();
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
