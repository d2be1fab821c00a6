import type { Command } from 'commander';
import { Context, type GlobalOptions } from '../context.js';

export interface RunContextHooks {
  /** Built once in cli.ts: aborted on Ctrl-C. */
  signal?: AbortSignal;
}

const hooks: RunContextHooks = {};

export function setRunHooks(next: RunContextHooks): void {
  Object.assign(hooks, next);
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
 * Wires a command's run function to commander: builds the per-run context from the global options, hands it the
 * command's own options and operands, and closes it afterwards.
 */
export function action<O extends object>(
  run: (ctx: Context, options: O, operands: string[]) => Promise<void>,
): (this: Command) => Promise<void> {
  return async function (this: Command) {
    const options = commandOptions(this) as O & GlobalOptions;
    const ctx = new Context(options, hooks.signal ? { signal: hooks.signal } : {});
    try {
      await ctx.compileJq();
      await run(ctx, options, this.processedArgs as string[]);
      await ctx.finishJq();
    } finally {
      await ctx.close();
    }
  };
}
