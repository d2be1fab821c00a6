#!/usr/bin/env node
'use strict';
// `lk --version` and `lk --help` run in prompts and loops: they are answered from the strings the build stored in
// dist/static.cjs, without loading commander and the command tree; `lk completion --profiles` likewise from
// dist/profiles.cjs, `lk completion --ids KIND` from dist/ids.cjs, `--aliases` and `--extensions` from
// dist/local-names.cjs. Everything else is the program in dist/cli.cjs,
// with Node's compile cache on where Node has one (useCompileCache below).
// This file is CommonJS, and writes with fs.writeSync, because Node starts a CommonJS file sooner than an ES module
// and setting up process.stdout costs more than answering: each saves milliseconds on a 40 ms start.
const { fstatSync, writeSync } = require('node:fs');

const args = process.argv.slice(2);
const only = args.length === 1 ? args[0] : undefined;

function answer(text) {
  try {
    writeSync(1, text);
  } catch (error) {
    // A reader that went away (`lk --help | head -1`) is done, not failed.
    if (error.code !== 'EPIPE') throw error;
  }
}

// The stored help is wrapped at 80 columns; a narrower terminal gets commander's own wrapping.
// (A pipe or file is settled by one fstat; only a character device needs the tty module.)
const narrowTerminal = () => fstatSync(1).isCharacterDevice() && require('node:tty').isatty(1) && process.stdout.columns < 80;

if (only === '--version' || only === '-V') {
  answer(`${require('../dist/static.cjs').VERSION}\n`);
} else if ((only === '--help' || only === '-h') && !narrowTerminal() && !require('../dist/local-names.cjs').hasLocalCommands()) {
  // (This machine's aliases and extensions have sections of their own in lk --help: the program writes those.)
  answer(require('../dist/static.cjs').HELP);
} else if (args.length === 2 && args[0] === 'completion' && args[1] === '--profiles') {
  // Run by the completion scripts at Tab time: the stored profile names, read from the config file alone.
  answer(require('../dist/profiles.cjs').profileLines());
} else if (args.length === 2 && args[0] === 'completion' && (args[1] === '--aliases' || args[1] === '--extensions')) {
  // This machine's aliases (from the config file) and extensions (lk-NAME on PATH), offered beside the commands.
  const names = require('../dist/local-names.cjs');
  answer(args[1] === '--aliases' ? names.aliasLines() : names.extensionLines());
} else if (args.length === 3 && args[0] === 'completion' && args[1] === '--ids') {
  // Likewise for entry and list ids, from the local mirror: nothing where there is none (or on Node < 22.13).
  answer(require('../dist/ids.cjs').idLines(args[2]));
} else {
  useCompileCache();
  require('../dist/cli.cjs')
    .main(process.argv)
    .then((code) => {
      process.exitCode = code;
    });
}

/**
 * Node's own compile cache (22.1 and later) under `<cache>/compile`: V8's code for the program, checked against a hash
 * of the file's content, so a rebuilt program is compiled afresh; one entry per file path, so installs side by side
 * keep theirs. Node 20 has none and compiles the program at each start; a cache that cannot be used (no home folder,
 * a read-only disk, NODE_DISABLE_COMPILE_CACHE) only costs that compile.
 */
function useCompileCache() {
  const { enableCompileCache } = require('node:module');
  // The single file (scripts/sea.mjs) carries V8's code for the program in itself, and loads no file Node could cache.
  if (!enableCompileCache || require('node:sea').isSea()) return;
  try {
    const folder = require('node:path').join(require('../dist/paths.cjs').cacheDir(process.env), 'compile');
    // Made here, 0700 like every folder lk makes (Node would make it, and the cache folder above it, 0755).
    require('node:fs').mkdirSync(folder, { recursive: true, mode: 0o700 });
    enableCompileCache(folder);
  } catch {
    // no cache folder to be found: the program compiles as usual
  }
}
