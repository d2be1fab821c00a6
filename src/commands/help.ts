import type { Command } from 'commander';
import { topicText } from '../help/render.js';
import { helpTopic, HELP_TOPICS } from '../help/topics.js';
import { closestName, examples, fitHelpText, fittedHelp, helpWidthOf } from './help-layout.js';

/**
 * `lk help [command|topic]` as commander's own help command says it, but a command of lk's: `lk help nothing` is a
 * usage error (exit 2, on stderr), where commander would print the root help and exit 0. A topic (`lk help
 * formats`, src/help/topics.ts) is printed in place of a command's help.
 */
export function addHelpCommand(program: Command): void {
  program.helpCommand(false);
  program
    .command('help')
    .argument('[command]', `a command, or a topic: ${HELP_TOPICS.map((topic) => topic.name).join(', ')}`)
    .description('display help for a command, or a help topic')
    .addHelpText('after', fittedHelp(`\n${topicsList()}${examples('lk help library', 'lk help formats')}`))
    .allowExcessArguments()
    .action((name: string | undefined) => {
      if (name === undefined) return program.help();
      const commands = program.commands.filter((command) => command.name() !== 'help');
      const command = commands.find((candidate) => candidate.name() === name || candidate.aliases().includes(name));
      if (command) return command.help();
      const topic = helpTopic(name);
      if (topic) {
        program.configureOutput().writeOut?.(fitHelpText(topicText(topic), helpWidthOf(program)));
        return;
      }
      const suggestion = closestName(name, [...commands.map((candidate) => candidate.name()), ...HELP_TOPICS.map((known) => known.name)]);
      program.error(`error: no command '${name}' to show help for${suggestion ? ` (Did you mean ${suggestion}?)` : ''}`, {
        code: 'commander.unknownCommand',
      });
    });
}

/** The topics, one a line, for `lk --help` and `lk help --help`. */
export function topicsList(): string {
  const width = Math.max(...HELP_TOPICS.map((topic) => topic.name.length));
  return `Help topics (lk help TOPIC):\n${HELP_TOPICS.map((topic) => `  ${topic.name.padEnd(width)}  ${topic.summary}`).join('\n')}\n`;
}
