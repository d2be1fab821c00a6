import type { Command } from 'commander';
import { TEXT } from '../output/shape.js';
import { text } from '../output/result.js';
import { storedAliases } from '../config/aliases.js';
import { listExtensions } from '../extend/extensions.js';
import { addCommand, defineCommand, wholeProgram } from './define.js';
import { examples, fittedHelp, showDefaultSubcommandOptions } from './help-layout.js';
import { TERMINAL_ONLY } from './uses.js';

const listCommand = (program: Command) =>
  defineCommand({
    name: 'list',
    uses: TERMINAL_ONLY,
    description: 'list the extensions on PATH, one a line: NAME and the file that runs',
    output: TEXT,
    examples: ['lk extension list', 'lk extension list | cut -d" " -f1'],
    storedConfig: 'unread',
    async run(ctx) {
      const found = listExtensions(ctx.env);
      // lk's commands, from the whole tree (a run's own tree holds only the command it runs).
      const commands = found.length > 0 ? new Set((await wholeProgram(program)).commands.map((command) => command.name())) : new Set<string>();
      const isCommandName = (name: string) => name === 'help' || commands.has(name);
      const aliases = found.length > 0 ? storedAliases(ctx.env) : {};
      const hiddenBy = (name: string) =>
        isCommandName(name)
          ? `  (not run: lk ${name} is a command of lk)`
          : Object.hasOwn(aliases, name)
            ? `  (not run: lk ${name} is your alias)`
            : '';
      if (found.length === 0) ctx.io.info('no extensions: an executable named lk-NAME on PATH runs as `lk NAME`');
      const width = Math.max(0, ...found.map((extension) => extension.name.length));
      return text(found.map(({ name, path }) => `${name.padEnd(width)}  ${path}${hiddenBy(name)}\n`).join(''));
    },
  });

export function registerExtension(program: Command): void {
  const extension = program
    .command('extension')
    .description('commands of your own: an executable lk-NAME on PATH runs as `lk NAME ARGS…`')
    .addHelpText(
      'after',
      fittedHelp(`
An extension gets the arguments after its name, and lk exits with its exit status. It runs with LK_PROFILE and
LK_BASE_URL set to the profile and instance lk would use, and never with a key lk read (from the config, the
keyring or LK_API_KEY_FILE, which is not passed on); an LK_API_KEY you set yourself passes through. One that needs
the key runs \`lk auth token\`, which works there however lk finds the key (with LK_API_KEY_FILE, by asking the lk
that runs the extension, through LK_KEY_SOCKET). A command of lk, then an alias, wins over an extension of its name.
${examples('lk extension list', 'lk hello world      # runs lk-hello world')}`),
    );
  showDefaultSubcommandOptions(extension, addCommand(extension, listCommand(program), { isDefault: true }));
}
