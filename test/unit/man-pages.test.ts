import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { helpTopicsMarkdown, makeProgram, manPages } from '../../src/cli.js';

/** The man pages as the build writes them (scripts/build.mjs), read from the same tree as --help. */

const ROOT = new URL('../../', import.meta.url);
const pages = await manPages();
const program = await makeProgram();

/** Every command --help shows, as its page's name: lk-library, lk-library-list… (lk help is lk(1) itself). */
function pageNames(command: Command, path: string[] = []): string[] {
  const help = command.createHelp();
  return help
    .visibleCommands(command)
    .filter((sub) => command.commands.includes(sub) && !(path.length === 0 && sub.name() === 'help'))
    .flatMap((sub) => [['lk', ...path, sub.name()].join('-'), ...pageNames(sub, [...path, sub.name()])]);
}

describe('man pages', () => {
  it('are lk(1) and one page for each command and subcommand of the tree', () => {
    const expected = ['lk', ...pageNames(program)];
    expect(pages.map((page) => page.name).sort()).toEqual(expected.sort());
    expect(expected).toEqual(expect.arrayContaining(['lk-library', 'lk-library-list', 'lk-sync', 'lk-alias-set', 'lk-extension']));
  });

  it('write every hyphen of an option or a command as \\-, so that it copies and searches as typed', () => {
    for (const { name, roff } of pages) {
      // A plain "-" before an option's name (--phase, -o) would be drawn as a hyphen.
      expect(roff, name).not.toMatch(/(^|[\s(`'"[|,/{=]|\\fB|\\fI)-(-|[a-zA-Z](\s|,|$))/m);
    }
    const library = pages.find((page) => page.name === 'lk-library')!.roff;
    expect(library).toContain('\\fB\\-\\-phase \\fI<phase>\\fB\\fR');
    expect(library).toMatch(/^\.TH LK\\-LIBRARY 1 /m);
  });

  it('are listed in package.json, so that npm install -g links them (npm run man keeps the list)', () => {
    const manifest = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { man: string[]; files: string[] };
    expect(manifest.man, 'package.json is stale: run `npm run man` and commit the result').toEqual(
      pages.map((page) => `./man/man1/${page.name}.1`).sort(),
    );
    expect(manifest.files).toContain('man/');
  });

  it('the README has the help topics as lk help shows them (npm run man writes them there)', () => {
    const readme = readFileSync(new URL('README.md', ROOT), 'utf8');
    expect(readme, 'README.md is stale: run `npm run man` and commit the result').toContain(
      `<!-- help topics: written by npm run man -->\n\n${helpTopicsMarkdown()}\n<!-- end of help topics -->`,
    );
  });
});
