import type { Command } from 'commander';
import { storedAliases } from '../config/aliases.js';
import { isShellAlias, SHELL_MARK } from '../extend/expand.js';
import { findExtension } from '../extend/extensions.js';
import { topicText } from '../help/render.js';
import { helpTopic, HELP_TOPICS } from '../help/topics.js';
import { closestName, examples, fitHelpText, fittedHelp, helpWidthOf } from './help-layout.js';

/**
 * `lk help [command [subcommand…]|topic|alias]` as commander's own help command says it, but a command of lk's:
 * `lk help alias set` is `lk alias set --help` (commander's stops at the first word), `lk help nothing` is a usage
 * error (exit 2, on stderr), where commander would print the root help and exit 0. A topic (`lk help formats`,
 * src/help/topics.ts) is printed in place of a command's help, and an alias or an extension of this machine is
 * said for what it runs.
 */
export function addHelpCommand(program: Command, env: NodeJS.ProcessEnv): void {
  program.helpCommand(false);
  program
    .command('help')
    .argument('[command...]', `a command and its subcommands, a topic (${HELP_TOPICS.map((topic) => topic.name).join(', ')}), or an alias`)
    .description('display help for a command, a help topic, or what an alias runs')
    .addHelpText('after', fittedHelp(`\n${topicsList()}${examples('lk help library', 'lk help alias set', 'lk help formats')}`))
    .action((words: string[]) => {
      const [name, ...subcommands] = words;
      if (name === undefined) return program.help();
      const command = childNamed(program, name);
      if (command) return subcommandHelp(command, subcommands);
      const write = (text: string) => program.configureOutput().writeOut?.(fitHelpText(text, helpWidthOf(program)));
      const topic = helpTopic(name);
      if (topic) return write(topicText(topic));
      const local = localCommandText(name, env);
      if (local) return write(local);
      const names = [
        ...program.commands.filter((candidate) => candidate.name() !== 'help').map((candidate) => candidate.name()),
        ...HELP_TOPICS.map((known) => known.name),
      ];
      unknown(program, name, closestName(name, names));
    });
}

function childNamed(command: Command, name: string): Command | undefined {
  return command.commands.find((candidate) => candidate.name() === name || candidate.aliases().includes(name));
}

/** The help of `command`'s subcommand named by the words, each word one level down. */
function subcommandHelp(command: Command, words: readonly string[]): void {
  let shown = command;
  for (const word of words) {
    const next = childNamed(shown, word);
    if (!next) {
      const suggestion = closestName(
        word,
        shown.commands.map((candidate) => candidate.name()),
      );
      return unknown(shown, `${pathOf(shown)} ${word}`, suggestion && `${pathOf(shown)} ${suggestion}`);
    }
    shown = next;
  }
  shown.help();
}

/** `alias set`: the command's words below the program. */
function pathOf(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

function unknown(command: Command, name: string, suggestion: string | undefined): never {
  command.error(`error: no command '${name}' to show help for${suggestion ? ` (Did you mean ${suggestion}?)` : ''}`, {
    code: 'commander.unknownCommand',
  });
}

/** What `lk NAME` runs when NAME is an alias or an extension of this machine (src/commands/local.ts decides it the same way). */
function localCommandText(name: string, env: NodeJS.ProcessEnv): string | undefined {
  const alias = storedAliases(env)[name];
  if (alias !== undefined && isShellAlias(alias)) {
    return `lk ${name} is a shell alias (lk alias list): lk ${name} ARGS… runs, through sh,\n  ${alias.slice(SHELL_MARK.length)}\nwith the arguments as "$1", "$2"…, "$@".\n`;
  }
  if (alias !== undefined) {
    return `lk ${name} is an alias (lk alias list): lk ${name} ARGS… runs\n  lk ${alias}\nwith $1, $2… replaced by the arguments, the others appended.\n`;
  }
  const extension = findExtension(name, env);
  if (extension) return `lk ${name} is an extension (lk extension list): lk ${name} ARGS… runs\n  ${extension.path} ARGS…\n`;
  return undefined;
}

/** The topics, one a line, for `lk --help` and `lk help --help`. */
export function topicsList(): string {
  const width = Math.max(...HELP_TOPICS.map((topic) => topic.name.length));
  return `Help topics (lk help TOPIC):\n${HELP_TOPICS.map((topic) => `  ${topic.name.padEnd(width)}  ${topic.summary}`).join('\n')}\n`;
}
