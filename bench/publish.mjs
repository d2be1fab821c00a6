// `lk publish`: the static site of a 100,000-entry mirror, made in a whole process (start to the last file written)
// beside the target of 10 s, and the site's size beside 50 MB (the diary paged). Runs lk under the Node with
// node:sqlite that bench/mirror.mjs finds.
//
//   node bench/run.mjs publish        # alone (npm run build first)
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { interleaved, lkBin, lkEnv, ms, row, run, scratch, startSandbox } from './lib.mjs';
import { sqliteNode } from './mirror.mjs';

const MB = 1e6;

/** The bytes of every file under `dir`. */
function sizeOf(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
}

export async function publish({ runs = 3 } = {}) {
  const node = sqliteNode();
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  const work = scratch();
  try {
    const sandbox = await startSandbox({ entries: 100_000, rateLimit: 0, exportIntervalSeconds: 0 });
    const env = lkEnv(sandbox, work.dir, { LK_DATA_DIR: join(work.dir, 'data') });
    await run(node, [lkBin, 'sync', '-q'], { env });
    await sandbox.close();
    const site = join(work.dir, 'site');
    // Each run into a new folder: every file written, none left as it was.
    const [timed] = await interleaved(
      [
        () => {
          rmSync(site, { recursive: true, force: true });
          return run(node, [lkBin, 'publish', '-q', site], { env });
        },
      ],
      runs,
    );
    const size = sizeOf(site);
    const files = readdirSync(site, { recursive: true }).length;
    return [
      row(`publish: lk publish, 100,000 entries, into a new folder (${version})`, ms(timed.median), '< 10000 ms', timed.median < 10_000),
      row(`publish: the site's size (${files.toLocaleString('en-US')} files)`, `${(size / MB).toFixed(1)} MB`, '< 50 MB', size < 50 * MB),
    ];
  } finally {
    work.cleanup();
  }
}
