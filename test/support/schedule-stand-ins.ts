import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * lk schedule's tools as stand-ins to put first on PATH, so that no test reads or writes the machine's own crontab or
 * units: node scripts, written into a folder of the test's own.
 */

/** A node script as a program named `name` in `bin`. */
export function standIn(bin: string, name: string, body: string): void {
  const file = join(bin, name);
  writeFileSync(file, `#!${process.execPath}\nconst fs = require('node:fs');\n${body}\n`);
  chmodSync(file, 0o755);
}

/**
 * A crontab that keeps the table in the file CRONTAB_FILE names (`-l`, `-` and `FILE`, as the real one takes), and
 * adds the environment each run got to CRONTAB_FILE.env.
 */
export const CRONTAB = `const table = process.env.CRONTAB_FILE;
fs.appendFileSync(table + '.env', JSON.stringify(process.env) + '\\n');
const arg = process.argv[2];
if (arg === '-l') {
  if (!fs.existsSync(table)) { process.stderr.write('no crontab for tester\\n'); process.exit(1); }
  process.stdout.write(fs.readFileSync(table));
} else if (arg === '-') fs.writeFileSync(table, fs.readFileSync(0));
else fs.copyFileSync(arg, table);`;

/** A systemctl whose user manager does not answer (no session bus): lk falls back to crontab. */
export const SILENT_SYSTEMCTL = `process.stderr.write('Failed to connect to bus: No medium found\\n'); process.exit(1);`;
