#!/usr/bin/env node
// `lk --version` and `lk --help` run in prompts and loops: they are answered from the strings the build stored in
// dist/static.js, without loading commander and the command tree. Everything else is the program in dist/cli.js.
const args = process.argv.slice(2);
const only = args.length === 1 ? args[0] : undefined;
// The stored help is wrapped at 80 columns; a narrower terminal gets commander's own wrapping.
const narrowTerminal = process.stdout.isTTY && process.stdout.columns < 80;

if (only === '--version' || only === '-V') {
  const { VERSION } = await import('../dist/static.js');
  process.stdout.write(`${VERSION}\n`);
} else if ((only === '--help' || only === '-h') && !narrowTerminal) {
  const { HELP } = await import('../dist/static.js');
  process.stdout.write(HELP);
} else {
  const { main } = await import('../dist/cli.js');
  process.exitCode = await main();
}
