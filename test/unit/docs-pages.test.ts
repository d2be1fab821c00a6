import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { makeProgram, markdownManual, withCommandTable } from '../../src/cli.js';

/**
 * The README and docs/: the generated parts as `npm run man` writes them (scripts/man.mjs, src/man/markdown.ts), every
 * command in both, the README short, and every link to a file of the repository leading to one.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const STALE = 'run `npm run man` and commit the result';
const manual = await markdownManual();
const program = await makeProgram();
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** Every command --help shows, by its words: `lk library list` (lk help aside, as for the man pages). */
function commandNames(command: Command, path: string[] = []): string[] {
  return command
    .createHelp()
    .visibleCommands(command)
    .filter((sub) => command.commands.includes(sub) && !(path.length === 0 && sub.name() === 'help'))
    .flatMap((sub) => [['lk', ...path, sub.name()].join(' '), ...commandNames(sub, [...path, sub.name()])]);
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => statSync(join(folder, file)).isFile())
    .sort();
}

/** The Markdown outside its fenced code blocks (a snippet to copy links nothing). */
function prose(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
}

describe('the generated docs', () => {
  it('docs/commands/ and docs/help/ are exactly what npm run man writes', () => {
    for (const folder of ['commands', 'help']) {
      const written = manual.pages.filter((page) => page.path.startsWith(`${folder}/`));
      expect(filesUnder(join(ROOT, 'docs', folder)), `docs/${folder}/ is stale: ${STALE}`).toEqual(
        written.map((page) => page.path.slice(folder.length + 1)).sort(),
      );
      for (const page of written) {
        expect(readFileSync(join(ROOT, 'docs', page.path), 'utf8'), `docs/${page.path} is stale: ${STALE}`).toBe(page.markdown);
      }
    }
  });

  it("the README's table of commands is what npm run man writes", () => {
    expect(withCommandTable(readme, manual.commandTable), `README.md is stale: ${STALE}`).toBe(readme);
  });

  it('every command of the tree has a row in the README and a page in docs/commands/', () => {
    const names = commandNames(program);
    expect(names).toEqual(expect.arrayContaining(['lk sync', 'lk convert', 'lk alias set', 'lk extension list', 'lk config unset']));
    for (const name of names) {
      const page = `docs/commands/${name.replace(/ /g, '-')}.md`;
      expect(readme, `README.md: no row for ${name}`).toMatch(new RegExp(`^\\| \\[\`${name}[\` ][^\\n]*\\]\\(${page}\\) \\|`, 'm'));
      expect(existsSync(join(ROOT, page)), page).toBe(true);
    }
    // What the hand-written table had left out (issue 62), now there because every option and setting comes from the tree.
    const serve = readFileSync(join(ROOT, 'docs/commands/lk-serve.md'), 'utf8');
    expect(serve).toMatch(/^- `--notify`/m);
    expect(serve).toMatch(/^- `--to <url>`/m);
    expect(readme).toMatch(/^\| \[`lk completion [^\n]*PowerShell/m);
    expect(readme).toMatch(/^\| \[`lk config`[^\n]*pager, ca-file, notify/m);
  });

  it('every help topic has its page, with every variable and exit status lk help names', () => {
    const environment = readFileSync(join(ROOT, 'docs/help/environment.md'), 'utf8');
    for (const variable of ['LK_PAGER', 'LK_MAX_BODY', 'LK_PAGING_CONCURRENCY', 'LK_API_KEY_FILE']) expect(environment).toContain(`\`${variable}\``);
    expect(readFileSync(join(ROOT, 'docs/help/exit-codes.md'), 'utf8')).toMatch(/130.*143.*129/);
  });
});

describe('the README', () => {
  const lines = readme.split('\n');

  it('is under 300 lines', () => {
    expect(lines.length).toBeLessThan(300);
  });

  it('starts with the quick start: npm install && npm run demo, then npm test', () => {
    const firstBlock = /^```sh\n([\s\S]*?)^```$/m.exec(readme)![1]!;
    expect(firstBlock.split('\n').map((line) => line.replace(/\s+#.*$/, ''))).toEqual(['npm install && npm run demo', 'npm test', '']);
    expect(readme.indexOf('## Quick start')).toBeLessThan(readme.indexOf('## Install'));
  });

  it('states the test command in its Development section, the one .ci/run runs', () => {
    const development = readme.slice(readme.indexOf('## Development'));
    expect(development).toContain('`npm test`');
    expect(readFileSync(join(ROOT, '.ci/run'), 'utf8')).toMatch(/^if .*\bnpm test\b/m);
  });
});

describe('links', () => {
  const files = [
    'README.md',
    ...filesUnder(join(ROOT, 'docs'))
      .filter((file) => file.endsWith('.md'))
      .map((file) => `docs/${file}`),
  ];

  it('to a file of the repository, in the README and docs/, lead to one', () => {
    const broken: string[] = [];
    for (const file of files) {
      for (const [, target] of prose(readFileSync(join(ROOT, file), 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target!) || target!.startsWith('#')) continue;
        const path = resolve(ROOT, dirname(file), decodeURIComponent(target!.split('#')[0]!));
        if (!existsSync(path)) broken.push(`${file}: ${target} (${relative(ROOT, path)})`);
      }
    }
    expect(files.length).toBeGreaterThan(20);
    expect(broken).toEqual([]);
  });
});
