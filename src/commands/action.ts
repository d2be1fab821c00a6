import type { Command } from 'commander';
import { Context, type Factory, type GlobalOptions } from '../context.js';

/** The factory each program was made with (src/cli.ts `makeProgram`), found from any of its commands. */
const factories = new WeakMap<Command, Factory>();

export function attachFactory(program: Command, factory: Factory): void {
  factories.set(program, factory);
}

export function factoryOf(command: Command): Factory {
  let root = command;
  while (root.parent) root = root.parent;
  const factory = factories.get(root);
  if (!factory) throw new Error('internal: a command ran outside a program made by makeProgram');
  return factory;
}

/**
 * A command's own options and the global ones, as typed on the command line. `.env()` on --base-url and --profile
 * makes commander fill them in from LK_BASE_URL and LK_PROFILE (and say so in --help); those values are dropped here so
 * that src/config/resolve.ts applies the precedence (flag, environment, profile, config) and can tell which one won.
 */
export function commandOptions(command: Command): Record<string, unknown> {
  const options = command.optsWithGlobals();
  for (const name of Object.keys(options)) {
    if (command.getOptionValueSourceWithGlobals(name) === 'env') delete options[name];
  }
  return options;
}

/**
 * Wires a command's run function to commander: builds the per-run context from the factory and the global options,
 * hands it the command's own options and operands, and closes it afterwards.
 */
export function action<O extends object>(run: (ctx: Context, options: O, operands: string[]) => Promise<void>): (this: Command) => Promise<void> {
  return async function (this: Command) {
    const options = commandOptions(this) as O & GlobalOptions;
    const ctx = new Context(options, factoryOf(this));
    try {
      await ctx.compileJq();
      await run(ctx, options, this.processedArgs as string[]);
      await ctx.finishJq();
      await ctx.commitOutput();
    } finally {
      await ctx.close();
    }
  };
}
