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
 * Wires a command's run function to commander: builds the per-run context from the global options, hands it the
 * command's own options and operands, and closes it afterwards.
 */
export function action<O extends object>(
  run: (ctx: Context, options: O, operands: string[]) => Promise<void>,
): (this: Command) => Promise<void> {
  return async function (this: Command) {
    const options = this.optsWithGlobals() as O & GlobalOptions;
    const ctx = new Context(options, hooks.signal ? { signal: hooks.signal } : {});
    try {
      await run(ctx, options, this.processedArgs as string[]);
    } finally {
      await ctx.close();
    }
  };
}
