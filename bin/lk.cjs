#!/usr/bin/env node
'use strict';
// `lk --version` and `lk --help` run in prompts and loops: they are answered from the strings the build stored in
// dist/static.cjs, without loading commander and the command tree; `lk completion --profiles` likewise from
// dist/profiles.cjs. Everything else is the program in dist/cli.js.
// This file is CommonJS because Node starts a CommonJS file measurably sooner than an ES module.
const args = process.argv.slice(2);
const only = args.length === 1 ? args[0] : undefined;
// The stored help is wrapped at 80 columns; a narrower terminal gets commander's own wrapping.
const narrowTerminal = process.stdout.isTTY && process.stdout.columns < 80;

if (only === '--version' || only === '-V') {
  process.stdout.write(`${require('../dist/static.cjs').VERSION}\n`);
} else if ((only === '--help' || only === '-h') && !narrowTerminal) {
  process.stdout.write(require('../dist/static.cjs').HELP);
} else if (args.length === 2 && args[0] === 'completion' && args[1] === '--profiles') {
  // Run by the completion scripts at Tab time: the stored profile names, read from the config file alone.
  process.stdout.write(require('../dist/profiles.cjs').profileLines());
} else {
  import('../dist/cli.js').then(async ({ main }) => {
    process.exitCode = await main();
  });
}
