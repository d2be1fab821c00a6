import type { Argument, Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { makeProgram } from '../../src/cli.js';
import { defaultSubcommand } from '../../src/completion/model.js';
import { runLkInProcess } from './harness.js';

/** Every command of the tree, the program itself first, hidden ones included (`lk profile show` still has a help). */
function walk(command: Command, path: string[] = []): Array<{ path: string[]; command: Command }> {
  return [{ path, command }, ...command.commands.flatMap((sub) => walk(sub, [...path, sub.name()]))];
}

/** What `lk <path> --help` must describe: the command's own options, and those of the subcommand it runs by default. */
function optionsShownBy(command: Command): Option[] {
  const sub = defaultSubcommand(command);
  return [...command.options, ...(sub ? optionsShownBy(sub) : [])].filter((option) => !option.hidden);
}

/** The indented lines after "Examples:", up to the first blank line. */
function examplesIn(help: string): string[] {
  const start = help.indexOf('\nExamples:\n');
  if (start === -1) return [];
  const lines = help.slice(start + '\nExamples:\n'.length).split('\n');
  const end = lines.findIndex((line) => !line.startsWith('  '));
  return (end === -1 ? lines : lines.slice(0, end)).filter((line) => line.trim() !== '');
}

/** Help text with its line wrapping undone, so that a description or a list of choices can be found whole. */
const unwrapped = (text: string) => text.replace(/\s+/g, ' ');
const choicesText = (choices: readonly string[]) => `(choices: ${choices.map((choice) => `"${choice}"`).join(', ')})`;

const COMMANDS = walk(await makeProgram()).map(({ path, command }) => ({ name: ['lk', ...path].join(' '), path, command }));

describe('--help on every command and subcommand', () => {
  it('walks the whole tree', () => {
    const names = COMMANDS.map(({ name }) => name);
    expect(names).toEqual(expect.arrayContaining(['lk', 'lk library', 'lk library list', 'lk config unset', 'lk sandbox', 'lk profile show']));
    expect(names.length).toBeGreaterThan(25);
  });

  describe.each(COMMANDS)('$name --help', ({ name, path, command }) => {
    let help: string | undefined;
    const helpText = async (): Promise<string> => {
      if (help === undefined) {
        const result = await runLkInProcess([...path, '--help'], { env: { COLUMNS: '80' } });
        expect(result.code).toBe(0);
        expect(result.stderr).toBe('');
        help = result.stdout;
      }
      return help;
    };

    it('starts with its usage and a one-line purpose', async () => {
      const text = await helpText();
      expect(text).toMatch(new RegExp(`^Usage: ${name} `));
      const purpose = command.description();
      expect(purpose.trim()).not.toBe('');
      expect(purpose).not.toContain('\n');
      expect(unwrapped(text)).toContain(unwrapped(purpose));
    });

    it('lists its options, those of its default subcommand, and the values each allows', async () => {
      const text = unwrapped(await helpText());
      for (const option of optionsShownBy(command)) {
        expect(text, `${name} --help lacks ${option.flags}`).toContain(` ${option.flags} `);
        if (option.argChoices) expect(text, `${name} --help lacks the values of ${option.long}`).toContain(choicesText(option.argChoices));
      }
      expect(text).toContain('-h, --help');
    });

    it('shows the values an argument allows', async () => {
      const text = unwrapped(await helpText());
      for (const argument of command.registeredArguments as readonly Argument[]) {
        if (argument.argChoices) expect(text).toContain(choicesText(argument.argChoices));
      }
    });

    it('gives at least two examples', async () => {
      expect(examplesIn(await helpText()).length, `${name} --help has fewer than two examples`).toBeGreaterThanOrEqual(2);
    });
  });
});

describe('help that fits', () => {
  it.each(COMMANDS.filter(({ path }) => path.length > 0))(
    'lk help $path.0 … prints what $name --help prints (lk help alias set = lk alias set --help)',
    async ({ path }) => {
      const help = await runLkInProcess(['help', ...path], { env: { COLUMNS: '80' } });
      const direct = await runLkInProcess([...path, '--help'], { env: { COLUMNS: '80' } });
      expect(help.stderr).toBe('');
      expect(help.code).toBe(0);
      expect(help.stdout).toBe(direct.stdout);
    },
  );

  it('lk help names an unknown subcommand whole, with the nearest one (exit 2)', async () => {
    const result = await runLkInProcess(['help', 'alias', 'sett']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe("lk: no command 'alias sett' to show help for (Did you mean alias set?)\n");
  });

  it('a subcommand lists its own flags and one line pointing to the global ones, not the twenty of them', async () => {
    for (const path of [['library'], ['library', 'show'], ['auth', 'status'], ['config', 'set'], ['open']]) {
      const help = (await runLkInProcess([...path, '--help'])).stdout;
      expect(help, path.join(' ')).toContain('Global options (--json, --fields, --profile, -q, …): see `lk --help`.');
      for (const global of ['--base-url <url>', '--no-color', '--max-wait <seconds>', '--csv-safe', '--timeout <seconds>']) {
        expect(help, `${path.join(' ')} repeats ${global}`).not.toContain(global);
      }
      for (const line of help.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    }
  });

  it('on a 50-column terminal every line fits (commands and code, indented, are left whole), descriptions under their flags', async () => {
    for (const { path, command } of COMMANDS) {
      const result = await runLkInProcess([...path, '--help'], { tty: { columns: 50 } });
      const name = ['lk', ...path].join(' ');
      expect(result.code, name).toBe(0);
      const examples = result.stdout.indexOf('\nExamples:\n');
      const lines = (examples === -1 ? result.stdout : result.stdout.slice(0, examples)).split('\n');
      // A command or a snippet of code (indented, and the same line at 80 columns) is never broken.
      const wide = new Set((await runLkInProcess([...path, '--help'], { tty: { columns: 80 } })).stdout.split('\n'));
      const verbatim = (line: string) => /^ +\S/.test(line) && !/\S {2,}\S/.test(line.trim()) && wide.has(line);
      for (const line of lines) if (!verbatim(line)) expect(line.length, `${name}: ${line}`).toBeLessThanOrEqual(50);
      for (const option of optionsShownBy(command)) expect(unwrapped(result.stdout), name).toContain(unwrapped(option.description));
    }
  });

  it('lk --help lists every global option', async () => {
    const help = (await runLkInProcess(['--help'])).stdout;
    for (const global of ['--base-url <url>', '--no-color', '--no-pager', '--cache <duration>', '--fields <list>', '--max-wait <seconds>'])
      expect(help).toContain(global);
  });

  it('--format offers ics only on lk calendar: in help, in errors, and in what it accepts', async () => {
    expect((await runLkInProcess(['--help'])).stdout).not.toMatch(/\bics\b/);
    expect((await runLkInProcess(['calendar', '--help'])).stdout).toMatch(/--format ics/);
    for (const path of [['library'], ['history'], ['whoami']]) expect((await runLkInProcess([...path, '--help'])).stdout).not.toMatch(/\bics\b/);
    const refused = await runLkInProcess(['library', '--format', 'ics'], { env: {} });
    expect(refused.code).toBe(2);
    const unknown = await runLkInProcess(['library', '--format', 'xml'], { env: {} });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(
      /^lk: option '--format <format>' argument 'xml' is invalid\. Allowed choices are table, json, ndjson, csv, tsv\.$/m,
    );
  });
});

describe('help details', () => {
  it('lk library --help shows the options of `lk library list` under a heading of their own, and they work there', async () => {
    const help = (await runLkInProcess(['library', '--help'])).stdout;
    expect(help).toContain('Options of `lk library` (= lk library list):');
    const section = help.slice(help.indexOf('Options of `lk library`'), help.indexOf('Global options ('));
    for (const flag of [
      '--phase <phase>',
      '--domain <domain>',
      '--sort <key>',
      '--order <order>',
      '--page <n>',
      '--limit <n>',
      '--all',
      '--max <n>',
    ]) {
      expect(section).toContain(flag);
    }
    // Shown, not registered: `lk library list --help` keeps them under its own "Options:".
    const list = (await runLkInProcess(['library', 'list', '--help'])).stdout;
    expect(list).not.toContain('Options of');
    expect(list.slice(list.indexOf('Options:'), list.indexOf('Global options ('))).toContain('--phase <phase>');
  });

  it('lk lists --help shows the paging flags of `lk lists list`', async () => {
    const help = (await runLkInProcess(['lists', '--help'])).stdout;
    const section = help.slice(help.indexOf('Options of `lk lists` (= lk lists list):'), help.indexOf('Global options ('));
    for (const flag of ['--page <n>', '--limit <n>', '--all', '--max <n>']) expect(section).toContain(flag);
  });

  it('lk sandbox --help says what its --json prints', async () => {
    const help = (await runLkInProcess(['sandbox', '--help'])).stdout;
    expect(help.slice(help.indexOf('Options:'), help.indexOf('Global options ('))).toMatch(/--json +print the base URL and the demo keys/);
  });

  it('lk sandbox --help names its admin routes (issue 44: the data changed without editing files)', async () => {
    const help = (await runLkInProcess(['sandbox', '--help'])).stdout;
    for (const route of [
      '/_sandbox/entries/ID/events',
      '/review',
      '/_sandbox/lists',
      '/_sandbox/notifications',
      '/_sandbox/profile',
      '/_sandbox/achievements/ID/unlock',
    ])
      expect(help).toContain(route);
    expect(help).toMatch(/loopback clients only/);
  });

  it('cron lines escape % (cron turns a bare one into a newline)', async () => {
    for (const { path } of COMMANDS) {
      const help = (await runLkInProcess([...path, '--help'])).stdout;
      for (const line of examplesIn(help).filter((example) => /^\s*(\S+\s+){4}\S+\s+\S/.test(example) && /^\s*[\d*@]/.test(example))) {
        expect(line.replace(/\\%/g, ''), `${path.join(' ')}: ${line}`).not.toContain('%');
      }
    }
  });
});
