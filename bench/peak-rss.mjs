// Preloaded (`node --import`) into a measured process: at exit, writes the process's own peak RSS in bytes to fd 3,
// which bench/lib.mjs opened as a pipe. No external `time` binary needed.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  try {
    writeSync(3, String(process.resourceUsage().maxRSS * 1024));
  } catch {
    // fd 3 not open: run outside the harness
  }
});
