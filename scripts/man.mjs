// `npm run man`: after the build has written man/man1 (scripts/build.mjs), lists its pages in package.json's `man`
// (npm links exactly those into PREFIX/share/man on `npm install -g`; it reads no folder of pages by itself) and
// writes the help topics into the README's reference. A test fails when either is stale, as for completions/.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
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

const { helpTopicsMarkdown } = createRequire(import.meta.url)('../dist/cli.cjs');
const readmeFile = new URL('README.md', root);
const readme = readFileSync(readmeFile, 'utf8');
const [start, end] = ['<!-- help topics: written by npm run man -->', '<!-- end of help topics -->'];
const from = readme.indexOf(start);
const to = readme.indexOf(end);
if (from === -1 || to === -1) throw new Error(`README.md: no ${start} … ${end} block`);
writeFileSync(readmeFile, `${readme.slice(0, from + start.length)}\n\n${helpTopicsMarkdown()}\n${readme.slice(to)}`);
process.stdout.write('README.md: help topics\n');
