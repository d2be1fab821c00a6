// The single file (npm run sea): its size, raw and gzip-compressed (target ≤ 50 MB gzip), and its start-up beside
// `node bin/lk.cjs` on the same Node, the one it carries (target within 1.1×), with and without the code cache built
// into it (useCodeCache), which decides whether that option pays. The node side runs with its compile cache warm.
//
//   node bench/sea.mjs            # alone (npm run build first); builds dist/sea/lk itself
import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { pinnedNode } from '../scripts/sea-node.mjs';
import { interleaved, lkBin, lkEnv, ms, ratio, root, row, run, scratch, startSandbox } from './lib.mjs';

const buildSea = (env = {}) =>
  execFileSync(process.execPath, [join(root, 'scripts/sea.mjs')], { env: { ...process.env, LK_SEA_QUIET: '1', ...env }, encoding: 'utf8' });

export async function sea({ runs = 21 } = {}) {
  const work = scratch();
  const sandbox = await startSandbox({ rateLimit: 0 });
  try {
    // The file without a code cache first (kept in the scratch folder), then the one npm run sea makes.
    buildSea({ LK_SEA_CODE_CACHE: '0' });
    const noCache = join(work.dir, 'lk-no-code-cache');
    copyFileSync(join(root, 'dist/sea/lk'), noCache);
    buildSea();
    const file = join(root, 'dist/sea/lk');
    const node = pinnedNode();
    const raw = statSync(file).size;
    const gzip = gzipSync(readFileSync(file)).length;
    const env = lkEnv(sandbox, work.dir);
    for (const command of [[node, lkBin], [file], [noCache]]) await run(command[0], [...command.slice(1), 'whoami'], { env });
    const [nodeWhoami, seaWhoami, noCacheWhoami, nodeVersion, seaVersion] = await interleaved(
      [
        () => run(node, [lkBin, 'whoami'], { env }),
        () => run(file, ['whoami'], { env }),
        () => run(noCache, ['whoami'], { env }),
        () => run(node, [lkBin, '--version'], { env }),
        () => run(file, ['--version'], { env }),
      ],
      runs,
    );
    const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
    const whoamiRatio = seaWhoami.median / nodeWhoami.median;
    const versionRatio = seaVersion.median / nodeVersion.median;
    return [
      row('sea: dist/sea/lk, raw', mb(raw), '', true),
      row('sea: dist/sea/lk, gzip -6', mb(gzip), '≤ 50 MB', gzip <= 50e6),
      row(`sea: node bin/lk.cjs whoami (local sandbox, ${version(node)})`, ms(nodeWhoami.median), '', true),
      row('sea: lk whoami, the single file', `${ms(seaWhoami.median)} (${ratio(whoamiRatio)})`, '≤ 1.1× node bin/lk.cjs', whoamiRatio <= 1.1),
      row(
        'sea: lk whoami, the single file without useCodeCache',
        `${ms(noCacheWhoami.median)} (${ratio(noCacheWhoami.median / nodeWhoami.median)})`,
        '',
        true,
      ),
      row('sea: node bin/lk.cjs --version', ms(nodeVersion.median), '', true),
      row('sea: lk --version, the single file', `${ms(seaVersion.median)} (${ratio(versionRatio)})`, '≤ 1.1× node bin/lk.cjs', versionRatio <= 1.1),
    ];
  } finally {
    await sandbox.close();
    work.cleanup();
  }
}

const version = (node) => execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await sea()) process.stdout.write(`${r.figure}: ${r.value} ${r.target} ${r.target ? (r.pass ? 'ok' : 'MISSED') : ''}\n`);
}
