import { Argument, Option, type Command } from 'commander';
import { COMPLETION_SHELLS, type CompletionShell } from '../completion/model.js';
import { profileLines } from '../completion/profiles.js';
import { UsageError } from '../util/errors.js';
import { isSettingName, SETTINGS } from '../config/settings.js';
import { IoStreams } from '../output/io.js';
import { factoryOf } from './action.js';
import { examples } from './options.js';

export function registerCompletion(program: Command): void {
  program
    .command('completion')
    .description('print the completion script for bash, zsh or fish (the same as completions/ in the package)')
    .addArgument(new Argument('[shell]', 'the shell to print the script for').choices(COMPLETION_SHELLS))
    // Called by the scripts at Tab time to complete --profile: local, fast, never the network or a key.
    .addOption(new Option('--profiles', 'print the names of the stored profiles, one a line').hideHelp())
    // Likewise for entry and list ids, read from the local mirror (nothing where there is none, or on Node < 22.13).
    .addOption(new Option('--ids <kind>', 'print the entry or list ids of the local mirror, one a line').hideHelp())
    // And for `lk config set NAME <Tab>`: the values NAME takes, where there is a short list.
    .addOption(new Option('--setting-values <name>', 'print the values a setting takes, one a line').hideHelp())
    .addHelpText(
      'after',
      `
Install (then open a new shell):
  bash  lk completion bash > ~/.local/share/bash-completion/completions/lk
  zsh   lk completion zsh > ~/.zsh/completions/_lk    (a folder on $fpath, set before compinit runs)
  fish  lk completion fish > ~/.config/fish/completions/lk.fish
${examples(
  'source <(lk completion bash)     # in ~/.bashrc, without the bash-completion package',
  'lk completion fish | source      # try it in the current fish session',
)}`,
    )
    .action(async function (
      this: Command,
      shell: CompletionShell | undefined,
      options: { profiles?: boolean; ids?: string; settingValues?: string },
    ) {
      const factory = factoryOf(this);
      const io = new IoStreams({ stdout: factory.stdout, stderr: factory.stderr, stdin: factory.stdin, env: factory.env });
      if (options.profiles) {
        await io.write(profileLines(factory.env));
        return;
      }
      // Tab-time answers: never an error, whatever is asked.
      if (options.ids !== undefined) {
        const { idLines } = await import('../completion/ids.js');
        await io.write(idLines(options.ids, factory.env));
        return;
      }
      if (options.settingValues !== undefined) {
        const name = options.settingValues;
        const values = isSettingName(name) ? (SETTINGS[name].values ?? []) : [];
        await io.write(values.map((value) => `${value}\n`).join(''));
        return;
      }
      if (!shell) throw new UsageError('which shell? use one of bash, zsh, fish', 'Example: lk completion bash');
      const root = rootOf(this);
      // Loaded only here: no other command pays for the generator.
      const { completionScript } = await import('../completion/generate.js');
      await io.write(completionScript(root, shell));
    });
}

/** The program a command belongs to. */
function rootOf(command: Command): Command {
  return command.parent ? rootOf(command.parent) : command;
}
