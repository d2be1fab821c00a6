import type { Command } from 'commander';
import { storeAlias, storedAliases } from '../config/aliases.js';
import { configFilePath } from '../config/store.js';
import { TEXT } from '../output/shape.js';
import { text } from '../output/result.js';
import { isShellAlias, SHELL_MARK, splitWords } from '../extend/expand.js';
import { findExtension, isExtensionName } from '../extend/extensions.js';
import { UsageError } from '../util/errors.js';
import { addCommand, defineCommand, operand, wholeProgram } from './define.js';
import { flag } from './flags.js';
import { examples, fittedHelp, showDefaultSubcommandOptions } from './help-layout.js';
import { TERMINAL_ONLY, type Uses } from './uses.js';

/** Aliases are the machine's, not a profile's: --profile would suggest otherwise. */
const ALIAS_USES: Uses = {
  ...TERMINAL_ONLY,
  said: {
    profile: {
      message: '{command} changes the aliases of every profile: --profile does not apply',
    },
  },
};

const NAME = operand('<name>', 'the alias: a word that is not a command of lk or an extension', {
  complete: { dynamic: { args: ['completion', '--aliases'] } },
});

const setCommand = (isCommandName: (name: string) => Promise<boolean>) =>
  defineCommand({
    name: 'set',
    uses: ALIAS_USES,
    description: 'make NAME stand for EXPANSION: `lk NAME ARGS…` runs `lk EXPANSION`, $1, $2… replaced, the rest appended',
    output: TEXT,
    operands: [NAME, operand('<expansion>', 'lk words (quoted as one argument), or with --shell or a leading ! a line for sh')],
    flags: { shell: flag.toggle('-s, --shell', 'run the expansion through sh; the arguments are its "$1", "$2"…, "$@"') },
    examples: [
      `lk alias set reading 'library --phase IN_PROGRESS'`,
      `lk alias set done 'library --phase DONE --domain $1'    # lk done BOOKS`,
      `lk alias set titles --shell 'lk library --all --json | jq -r ".[].work.title"'`,
    ],
    storedConfig: 'lenient',
    async run(ctx, _out, options, [name, expansion]) {
      if (!isExtensionName(name)) throw new UsageError(`an alias name is a plain word (letters, digits, - and _), not "${name}"`);
      if (await isCommandName(name)) throw new UsageError(`"${name}" is a command of lk: an alias cannot take its name`);
      const extension = findExtension(name, ctx.env);
      if (extension) throw new UsageError(`"${name}" is an extension (${extension.path}): an alias cannot take its name`);
      const shell = options.shell || isShellAlias(expansion);
      const body = shell && isShellAlias(expansion) ? expansion.slice(SHELL_MARK.length) : expansion;
      if (body.trim() === '') throw new UsageError('the expansion is empty');
      if (!shell) {
        const first = splitWords(body).find((word) => !word.startsWith('-'));
        if (first === undefined || (!(await isCommandName(first)) && !findExtension(first, ctx.env))) {
          throw new UsageError(`the expansion does not start with a command of lk (or use --shell): ${body}`);
        }
      }
      const stored = shell ? `${SHELL_MARK}${body}` : body;
      const before = storedAliases(ctx.env)[name];
      await storeAlias(ctx.configDir, name, stored);
      ctx.io.info(`${before === undefined ? 'added' : 'changed'} alias ${name}: ${stored} (in ${configFilePath(ctx.configDir)})`);
    },
  });

const listCommand = defineCommand({
  name: 'list',
  uses: TERMINAL_ONLY,
  description: 'list the aliases, one a line: NAME: EXPANSION (a shell alias starts with !)',
  output: TEXT,
  examples: ['lk alias list', "lk alias list | grep -v ': !'    # not the shell ones"],
  storedConfig: 'lenient',
  async run(ctx) {
    const aliases = Object.entries(storedAliases(ctx.env)).sort(([a], [b]) => a.localeCompare(b));
    if (aliases.length === 0) ctx.io.info('no aliases: make one with `lk alias set NAME EXPANSION`');
    return text(aliases.map(([name, expansion]) => `${name}: ${expansion}\n`).join(''));
  },
});

const deleteCommand = defineCommand({
  name: 'delete',
  uses: ALIAS_USES,
  description: 'forget an alias',
  output: TEXT,
  operands: [NAME],
  examples: ['lk alias delete reading', 'lk alias list | cut -d: -f1 | xargs -n1 lk alias delete    # every one'],
  storedConfig: 'lenient',
  async run(ctx, _out, _options, [name]) {
    if (storedAliases(ctx.env)[name] === undefined) throw new UsageError(`no alias named "${name}" (lk alias list shows them)`);
    await storeAlias(ctx.configDir, name, undefined);
    ctx.io.info(`deleted alias ${name}`);
  },
});

export function registerAlias(program: Command): void {
  const alias = program
    .command('alias')
    .description('shorter words for the commands you type often, as gh has them (kept per machine, in the config file)')
    .addHelpText(
      'after',
      fittedHelp(`
An alias runs as the command it stands for: \`lk NAME ARGS…\` is \`lk EXPANSION\` with $1, $2… replaced by the
arguments and the others appended. With --shell (or an expansion starting with !) the expansion is a line for sh,
which gets the arguments as "$1", "$2"…, "$@". A name that is a command of lk or an extension's is refused; an
expansion may start with an extension's name. An alias that runs itself again (\`!lk NAME\`), directly or through
others, stops with exit 2 naming the chain; they nest at most 8 deep. \`lk help NAME\` says what an alias runs.
${examples("lk alias set reading 'library --phase IN_PROGRESS'", 'lk reading --json', 'lk help reading', 'lk alias list', 'lk alias delete reading')}`),
    );
  showDefaultSubcommandOptions(alias, addCommand(alias, listCommand, { isDefault: true }));
  // lk's commands, from the whole tree (a run's own tree holds only the command it runs).
  const isCommandName = async (name: string) => name === 'help' || (await wholeProgram(program)).commands.some((command) => command.name() === name);
  addCommand(alias, setCommand(isCommandName));
  addCommand(alias, deleteCommand);
}
