import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeProgram, manPages } from '../../src/cli.js';
import { describeWith } from '../support/outside-tools.js';
import { tempDir } from '../support/temp-dir.js';

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
});

/** Minute, hour, day, month, weekday, then the command: a line of a crontab. */
const CRONTAB_LINE = /^[\d*][\w*/,-]*(\s+[\w*/,-]+){4}\s+\S/;

describe('man pages as roff', () => {
  it("keep a table right under a paragraph as lines of its own (lk convert's targets, lk mcp's JSON), not in the paragraph", () => {
    expect(pages.find((page) => page.name === 'lk-convert')!.roff).toMatch(/matched by title\.\n\.PP\n\.RS 4\n\.nf\nletterboxd {2}films:/);
    expect(pages.find((page) => page.name === 'lk-mcp')!.roff).toMatch(/Configuration"\):\n\.PP\n\.RS 4\n\.nf\n\{\n/);
  });

  it('are ASCII: a character beyond it is written \\[uXXXX], as preconv would (… is \\[u2026])', () => {
    for (const { name, roff } of pages) expect(roff, name).toMatch(/^[\t\n\x20-\x7e]*$/);
    expect(pages.find((page) => page.name === 'lk-sql')!.roff).toContain('"SELECT \\[u2026]"');
  });

  it('never continue a crontab line with a backslash (cron reads none): cut, it comes with a note to join it', () => {
    const cut = pages.filter(({ roff }) => roff.split('\n').some((line) => CRONTAB_LINE.test(line) && / \\e$/.test(line)));
    expect(cut.map((page) => page.name)).toEqual([]);
    const notify = pages.find((page) => page.name === 'lk-notify')!.roff;
    expect(notify).toMatch(/^\*\/30 \* \* \* \* {2}LK_API_KEY_FILE=\$HOME\/\.config\/lk\/key \/usr\/local\/bin\/lk$/m);
    expect(notify).toContain('is one line in the crontab: join the lines indented under it');
  });

  it('move a comment that makes a command too long onto its own line above it, not into a backslash continuation', () => {
    const sql = pages.find((page) => page.name === 'lk-sql')!.roff;
    expect(sql).toContain('# rows stream: the first comes at once\nlk sql "SELECT * FROM history" \\-\\-ndjson | head \\-1\n');
    for (const { name, roff } of pages) expect(roff, name).not.toMatch(/# .* \\e$/m);
  });
});

/**
 * The pages as groff and man-db read them, all in one run each so that the check stays cheap: groff given every page
 * (its warnings name the file), man given them one after another in one file (one formatting instead of 53: 0.1 s,
 * not 5; each page's title line still says where a line is). Written from the same tree as the build's man/man1.
 */
describeWith(['groff', 'man'], 'man pages read by groff and man-db', () => {
  let files: string[];
  let together: string;
  beforeAll(() => {
    const dir = tempDir('lk-man-');
    files = pages.map(({ name, roff }) => {
      const file = join(dir, `${name}.1`);
      writeFileSync(file, roff);
      return file;
    });
    together = join(dir, 'all.1');
    writeFileSync(together, pages.map((page) => page.roff).join(''));
  });

  it('groff -ww -z -man has no warning on any page', () => {
    const result = spawnSync('groff', ['-ww', '-z', '-man', ...files], { encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
  });

  it('MANWIDTH=80 man -l: no line of any page wider than 80 columns (examples, tables and all)', () => {
    const env = { PATH: process.env.PATH, LANG: 'C.UTF-8', MANWIDTH: '80', MANPAGER: 'cat', PAGER: 'cat' };
    const result = spawnSync('man', ['-l', together], { encoding: 'utf8', env });
    expect(result.status, result.stderr).toBe(0);
    // Bold and underline as nroff overstrikes them (c, backspace, c): the text alone.
    const text = result.stdout.replace(/.\x08/gu, '');
    let page = '';
    const wide: string[] = [];
    for (const line of text.split('\n')) {
      page = /^(LK\S*)\(1\)/.exec(line)?.[1] ?? page;
      if (line.length > 80) wide.push(`${page}: ${line.length}: ${line}`);
    }
    expect(wide).toEqual([]);
    // Every page was read: its title line is there.
    for (const { name } of pages) expect(text).toContain(`${name.toUpperCase()}(1)`);
  });
});
