// Preloaded (`node --require`) into a measured process under another Node than the one running the benchmarks
// (bench/lines.mjs): at exit, writes the process's own peak RSS in bytes to fd 3. CommonJS, so that measuring does
// not load Node's ES module loader into the process measured. See bench/peak-rss.mjs.
'use strict';
const { writeSync } = require('node:fs');

process.on('exit', () => {
  try {
    writeSync(3, String(process.resourceUsage().maxRSS * 1024));
  } catch {
    // fd 3 not open: run outside the harness
  }
});
