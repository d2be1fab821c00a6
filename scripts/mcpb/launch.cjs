#!/usr/bin/env node
'use strict';
// The .mcpb bundle's entry point (bin/mcpb.cjs in the bundle, beside bin/lk.cjs): `lk mcp` with what the user set in
// the host's settings for the bundle (its manifest's user_config). The host writes each setting into an argument,
// --live=true|false, --profile=NAME, --db=FILE, --key-file=FILE; one the user left empty arrives empty or as the
// placeholder itself (${user_config.NAME}) and is left out, so lk's own defaults apply. The key's file is handed to
// lk as LK_API_KEY_FILE in its own process (hosts pass few environment variables): the key is never on argv. Any
// other argument goes to lk mcp as it is.
const SETTING = /^--(live|profile|db|key-file)=([\s\S]*)$/;

const lk = ['mcp'];
for (const arg of process.argv.slice(2)) {
  const setting = SETTING.exec(arg);
  if (!setting) {
    lk.push(arg);
    continue;
  }
  const [, name, value] = setting;
  if (value === '' || /^\$\{user_config\.[^}]*\}$/.test(value)) continue;
  if (name === 'live') {
    if (value !== 'true' && value !== 'false') {
      process.stderr.write(`lk mcp: the bundle's setting live is ${JSON.stringify(value)}, not true or false\n`);
      process.exit(2);
    }
    if (value === 'true') lk.push('--live');
  } else if (name === 'key-file') process.env.LK_API_KEY_FILE = value;
  else lk.push(`--${name}`, value);
}

process.argv = [process.argv[0], require.resolve('./lk.cjs'), ...lk];
require('./lk.cjs');
