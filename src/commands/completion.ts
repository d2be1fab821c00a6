import { Option, type Command } from 'commander';
import { TEXT } from '../output/shape.js';
import { text } from '../output/result.js';
import { COMPLETION_SHELLS } from '../completion/model.js';
import { profileLines } from '../completion/profiles.js';
import { UsageError } from '../util/errors.js';
import { isSettingName, SETTINGS } from '../config/settings.js';
import { addCommand, defineCommand, operand, wholeProgram } from './define.js';
import { flag } from './flags.js';
import { TERMINAL_ONLY } from './uses.js';
import { idLines } from '../completion/ids.js';
import { completionScript } from '../completion/generate.js';
import { aliasLines, extensionLines } from '../extend/names.js';

export function registerCompletion(program: Command): void {
  addCommand(
    program,
    defineCommand({
      name: 'completion',
      uses: TERMINAL_ONLY,
      description: 'print the completion script for bash, zsh, fish or PowerShell (the same as completions/ in the package)',
      output: TEXT,
      operands: [operand('[shell]', 'the shell to print the script for', { choices: COMPLETION_SHELLS })],
      flags: {
        // Called by the scripts at Tab time to complete --profile: local, fast, never the network or a key.
        profiles: flag.custom<boolean | undefined>(() => new Option('--profiles', 'print the names of the stored profiles, one a line').hideHelp()),
        // Likewise for entry and list ids, read from the local mirror (nothing where there is none, or on Node < 22.13).
        ids: flag.custom<string | undefined>(() =>
          new Option('--ids <kind>', 'print the entry or list ids of the local mirror, one a line').hideHelp(),
        ),
        // And for the names of this machine's aliases and extensions, offered beside lk's commands.
        aliases: flag.custom<boolean | undefined>(() => new Option('--aliases', 'print the names of the aliases, one a line').hideHelp()),
        extensions: flag.custom<boolean | undefined>(() =>
          new Option('--extensions', 'print the names of the extensions on PATH, one a line').hideHelp(),
        ),
        // And for `lk config set NAME <Tab>`: the values NAME takes, where there is a short list.
        settingValues: flag.custom<string | undefined>(() =>
          new Option('--setting-values <name>', 'print the values a setting takes, one a line').hideHelp(),
        ),
      },
      help: `
Install (then open a new shell):
  lk completion bash > ~/.local/share/bash-completion/completions/lk
  lk completion zsh > ~/.zsh/completions/_lk
  lk completion fish > ~/.config/fish/completions/lk.fish
  lk completion powershell >> $PROFILE
For zsh, ~/.zsh/completions must be in $fpath before compinit runs.
`,
      examples: [
        'source <(lk completion bash)     # in ~/.bashrc, without the bash-completion package',
        'lk completion fish | source      # try it in the current fish session',
      ],
      // Tab-time answers never depend on the config file, and are never an error.
      storedConfig: 'unread',
      async run(ctx, _out, options, [shell]) {
        if (options.profiles) return text(profileLines(ctx.env));
        if (options.aliases) return text(aliasLines(ctx.env));
        if (options.extensions) return text(extensionLines(ctx.env));
        if (options.ids !== undefined) {
          return text(idLines(options.ids, ctx.env));
        }
        if (options.settingValues !== undefined) {
          const name = options.settingValues;
          const values = isSettingName(name) ? (SETTINGS[name].values ?? []) : [];
          return text(values.map((value) => `${value}\n`).join(''));
        }
        if (!shell) throw new UsageError('which shell? use one of bash, zsh, fish, powershell', 'Example: lk completion bash');
        // Loaded only here: no other command pays for the generator.
        return text(completionScript(await wholeProgram(program), shell));
      },
    }),
  );
}
