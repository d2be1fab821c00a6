#!/usr/bin/env node
'use strict';
// `lk --version` and `lk --help` run in prompts and loops: they are answered from the strings the build stored in
// dist/static.cjs, without loading commander and the command tree; `lk completion --profiles` likewise from
// dist/profiles.cjs, and `lk completion --ids KIND` from dist/ids.cjs. Everything else is the program in dist/cli.cjs,
// compiled with a code cache (loadProgram below).
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
} else if ((only === '--help' || only === '-h') && !narrowTerminal()) {
  answer(require('../dist/static.cjs').HELP);
} else if (args.length === 2 && args[0] === 'completion' && args[1] === '--profiles') {
  // Run by the completion scripts at Tab time: the stored profile names, read from the config file alone.
  answer(require('../dist/profiles.cjs').profileLines());
} else if (args.length === 3 && args[0] === 'completion' && args[1] === '--ids') {
  // Likewise for entry and list ids, from the local mirror: nothing where there is none (or on Node < 22.13).
  answer(require('../dist/ids.cjs').idLines(args[2]));
} else {
  const { exports: program, hooks } = loadProgram();
  program.main(process.argv, hooks).then((code) => {
    process.exitCode = code;
  });
}

/**
 * The program, compiled with V8's code cache kept under lk's cache folder (src/util/code-cache.ts: safe to delete,
 * one subfolder per Node version, never a reason to fail), ~20 ms of a start on Node 20, and a little better than
 * Node 22's own compile cache because it holds the code of the whole start, not just of the top level. It is written
 * when the program is about to change V8's flags (its first request: V8 refuses a cache made under other flags than
 * its own), or else when the run ends.
 */
function loadProgram() {
  const { join } = require('node:path');
  const folder = cacheFolder(join);
  const cached = require('../dist/code-cache.cjs').requireWithCodeCache(join(__dirname, '../dist/cli.cjs'), folder);
  let flagsChanged = false;
  process.once('exit', () => {
    if (!flagsChanged) cached.save();
  });
  const beforeV8Flags = () => {
    cached.save();
    flagsChanged = true;
  };
  return { exports: cached.exports, hooks: { beforeV8Flags } };
}

/** `<cache>/compile`, or none when even that cannot be known (no home folder): the program then compiles as usual. */
function cacheFolder(join) {
  try {
    return join(require('../dist/paths.cjs').cacheDir(process.env), 'compile');
  } catch {
    return undefined;
  }
}
