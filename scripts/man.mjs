// `npm run man`: after the build has written man/man1 (scripts/build.mjs), lists its pages in package.json's `man`
// (npm links exactly those into PREFIX/share/man on `npm install -g`; it reads no folder of pages by itself), writes
// the same manual in Markdown into docs/ (a page per command in docs/commands/, the help topics in docs/help/: both
// folders are the generator's alone, a page of a command that is gone is removed) and the table of commands into the
// README between its markers. A test fails when any of them is stale, as for completions/ (test/unit/docs-pages.test.ts).
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const root = new URL('../', import.meta.url);
const packageFile = new URL('package.json', root);
const manifest = JSON.parse(readFileSync(packageFile, 'utf8'));
const pages = readdirSync(new URL('man/man1/', root))
  .filter((file) => file.endsWith('.1'))
  .sort()
  .map((file) => `./man/man1/${file}`);
writeFileSync(packageFile, `${JSON.stringify({ ...manifest, man: pages }, null, 2)}\n`);
process.stdout.write(`package.json: man lists ${pages.length} pages\n`);

const { markdownManual, withCommandTable } = createRequire(import.meta.url)('../dist/cli.cjs');
const manual = await markdownManual();
for (const folder of new Set(manual.pages.map((page) => page.path.split('/')[0]))) {
  rmSync(new URL(`docs/${folder}/`, root), { recursive: true, force: true });
  mkdirSync(new URL(`docs/${folder}/`, root), { recursive: true });
}
for (const page of manual.pages) writeFileSync(new URL(`docs/${page.path}`, root), page.markdown);
process.stdout.write(`docs/: ${manual.pages.length} pages\n`);

const readmeFile = new URL('README.md', root);
writeFileSync(readmeFile, withCommandTable(readFileSync(readmeFile, 'utf8'), manual.commandTable));
process.stdout.write('README.md: the table of commands\n');
