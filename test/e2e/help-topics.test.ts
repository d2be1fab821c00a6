import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makeProgram } from '../../src/cli.js';
import { completionTree } from '../../src/completion/model.js';
import { HELP_TOPICS } from '../../src/help/topics.js';
import { commandsFor } from '../../src/commands/index.js';
import { ExitCode } from '../../src/util/errors.js';
import { runLkInProcess } from './harness.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** Every LK_* variable src reads: `env.LK_X`, `env?.LK_X`, `env['LK_X']`, or one set for a child (`LK_X: …`). */
function variablesRead(): string[] {
  const names = new Set<string>();
  for (const file of sourceFiles(SRC)) {
    for (const match of readFileSync(file, 'utf8').matchAll(/env\??\.(LK_[A-Z_]+)|env\[['"](LK_[A-Z_]+)['"]\]|\b(LK_[A-Z_]+):/g)) {
      names.add((match[1] ?? match[2] ?? match[3])!);
    }
  }
  return [...names].sort();
}

/** Every --format value some command accepts, read from the tree the completion scripts are made from. */
async function everyFormat(): Promise<string[]> {
  const tree = completionTree(await makeProgram());
  const values = [...tree.globals, ...tree.nodes.flatMap((node) => node.flags)]
    .filter((flag) => flag.long === '--format' && flag.value?.kind === 'choices')
    .flatMap((flag) => (flag.value?.kind === 'choices' ? flag.value.choices : []));
  return [...new Set(values)].sort();
}

const topic = async (name: string): Promise<string> => {
  const result = await runLkInProcess(['help', name]);
  expect(result.code).toBe(0);
  expect(result.stderr).toBe('');
  return result.stdout;
};

/** The first column of a topic's lists (`  json    an array…`): the words it names as its own items. */
const termsOf = (text: string): string[] => [...text.matchAll(/^ {2}(\S(?:[^ ]| (?! ))*) {2,}/gm)].flatMap((match) => match[1]!.split(/, /));

describe('lk help TOPIC', () => {
  it('lists every topic in lk --help and in lk help --help', async () => {
    const root = await runLkInProcess(['--help']);
    const help = await runLkInProcess(['help', '--help']);
    for (const { name } of HELP_TOPICS) {
      expect(root.stdout).toMatch(new RegExp(`^ {2}${name} `, 'm'));
      expect(help.stdout).toContain(name);
    }
    expect(HELP_TOPICS.map((known) => known.name)).toEqual(['formats', 'environment', 'exit-codes', 'dates', 'mirror']);
  });

  it('formats names every --format value a command accepts', async () => {
    const formats = await everyFormat();
    expect(formats).toEqual(expect.arrayContaining(['table', 'json', 'ndjson', 'csv', 'tsv', 'ics', 'atom', 'html', 'lines']));
    expect(termsOf(await topic('formats'))).toEqual(expect.arrayContaining(formats));
  });

  it('environment names every LK_* variable src reads', async () => {
    const read = variablesRead();
    expect(read).toEqual(expect.arrayContaining(['LK_API_KEY', 'LK_API_KEY_FILE', 'LK_PROFILE', 'LK_DATA_DIR', 'LK_PAGER']));
    expect(termsOf(await topic('environment'))).toEqual(expect.arrayContaining(read));
  });

  it('exit-codes names every exit code lk has', async () => {
    const terms = termsOf(await topic('exit-codes'));
    for (const code of Object.values(ExitCode)) expect(terms).toContain(String(code));
    expect(terms).toEqual(expect.arrayContaining(['0', '1', '2', '3', '4', '5', '6']));
  });

  it('dates names the date forms and durations', async () => {
    const text = await topic('dates');
    for (const form of ['2026-01-31', 'today', 'yesterday', '7d', '30m', '--from', '--max-age']) expect(text).toContain(form);
  });

  it('mirror names lk sync, where the file is and what reads it', async () => {
    const text = await topic('mirror');
    for (const word of ['lk sync', '<profile>.db', 'LK_DATA_DIR', 'lk search', 'lk sql', '--offline', '22.13']) expect(text).toContain(word);
  });

  it('a topic loads no command module; a command named after help still loads its own', () => {
    expect(commandsFor(['help', 'formats'])).toEqual([]);
    expect(commandsFor(['help', 'sync']).map((command) => command.name)).toEqual(['sync']);
    expect(commandsFor(['help', 'nothing']).length).toBeGreaterThan(20);
  });

  it('an unknown topic is one line on stderr, exit 2', async () => {
    const result = await runLkInProcess(['help', 'exit-code']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe("lk: no command 'exit-code' to show help for (Did you mean exit-codes?)\n");
  });
});
