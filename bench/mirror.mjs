// The SQLite mirror (lk sync, lk search, --offline): start-up of the local answers beside `node -e 0`, a sync of a
// 100,000-entry account from the cached export beside `lk export --format csv` on the same cache (and its peak
// RSS), and the requests of a first sync and of a re-sync with nothing changed beside their floors.
// node:sqlite needs Node 22.13+ (sqliteNode, also used by bench/report.mjs): lk runs here under LK_BENCH_NODE, else this Node if it has node:sqlite, else the
// Node 24 that scripts/node-versions.mjs installs. `node -e 0` runs under the same Node.
//
//   node bench/mirror.mjs            # alone (npm run build first)
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { interleaved, lkBin, lkEnv, ms, peakRssPreload, ratio, root, row, run, scratch, startSandbox } from './lib.mjs';

export function sqliteNode() {
  if (process.env.LK_BENCH_NODE) return process.env.LK_BENCH_NODE;
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major > 22 || (major === 22 && minor >= 13)) return process.execPath;
  return execFileSync(process.execPath, [join(root, 'scripts/node-versions.mjs'), '24'], { encoding: 'utf8' })
    .trim()
    .split(' ')[1];
}

/**
 * A sandbox account of `entries` and a scratch folder (its LK_DATA_DIR holds the mirror), for lk run under the Node
 * that has node:sqlite: `use` gets them, and both are gone once it is done.
 */
export async function onLargeAccount(entries, use) {
  const node = sqliteNode();
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  const work = scratch();
  const big = await startSandbox({ entries, rateLimit: 0 });
  try {
    return await use({ node, version, work, big, env: lkEnv(big, work.dir, { LK_DATA_DIR: join(work.dir, 'data') }) });
  } finally {
    await big.close();
    work.cleanup();
  }
}

/** onLargeAccount, with the account synced into a mirror first (`db`, for `lk … --db`): for what reads a mirror. */
export async function onSyncedMirror(entries, use) {
  return onLargeAccount(entries, async (account) => {
    const db = join(account.work.dir, 'mirror.db');
    await run(account.node, [lkBin, 'sync', '-q', '--db', db], { env: account.env });
    return use({ ...account, db });
  });
}

export async function mirror({ runs = 5, entries = 100_000 } = {}) {
  const rows = [];
  const node = await onLargeAccount(entries, async ({ node, version, work, big, env }) => {
    // The export, cached by lk export; then the sync from that cache, against lk export --format csv on it.
    await run(node, [lkBin, 'export', '-q', '-o', join(work.dir, 'export.json')], { env });
    const exportsBefore = big.counters.exports;
    const csvOut = join(work.dir, 'csv');
    const { rmSync } = await import('node:fs');
    const sync = () => {
      rmSync(join(work.dir, 'data'), { recursive: true, force: true });
      return run(node, ['--import', pathToFileURL(peakRssPreload).href, lkBin, 'sync', '-q'], { env });
    };
    const csv = () => {
      rmSync(csvOut, { recursive: true, force: true });
      return run(node, ['--import', pathToFileURL(peakRssPreload).href, lkBin, 'export', '-q', '--format', 'csv', '--output-dir', csvOut], { env });
    };
    const timed = await interleaved([csv, sync], Math.min(runs, 3), (result) => result);
    const [csvRuns, syncRuns] = timed.map((t) => t.samples);
    const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const csvMs = median(csvRuns.map((r) => r.ms));
    const syncMs = median(syncRuns.map((r) => r.ms));
    const syncRss = Math.max(...syncRuns.map((r) => r.peakRssMb ?? Number.NaN));
    if (big.counters.exports !== exportsBefore) throw new Error('lk sync fetched a new export instead of using the cache');
    const n = entries.toLocaleString('en-US');
    rows.push(row(`mirror: lk export --format csv, cached ${n}-entry export (${version})`, ms(csvMs), '', true));
    rows.push(row('mirror: lk sync from that cached export', `${ms(syncMs)} (${ratio(syncMs / csvMs)})`, '≤ 3× export csv', syncMs / csvMs <= 3));
    const csvRss = Math.max(...csvRuns.map((r) => r.peakRssMb ?? Number.NaN));
    rows.push(row('mirror: peak RSS of that sync', `${syncRss.toFixed(0)} MB (export csv: ${csvRss.toFixed(0)} MB)`, '< 250 MB', syncRss < 250));

    // Local answers over the 100,000-entry mirror, beside the least a Node process costs.
    const floor = () => run(node, ['-e', '0'], { env });
    const search = () => run(node, [lkBin, 'search', 'night', '--json'], { env });
    const offline = () => run(node, [lkBin, 'library', '--offline', '--limit', '20', '--json'], { env });
    const [f, s, o] = await interleaved([floor, search, offline], runs);
    rows.push(row(`mirror: node -e 0 (floor, ${version})`, ms(f.median), '', true));
    rows.push(
      row(`mirror: lk search night over ${n} entries`, `${ms(s.median)} (${ratio(s.median / f.median)})`, '≤ 2.5× floor', s.median / f.median <= 2.5),
    );
    rows.push(
      row('mirror: lk library --offline --limit 20', `${ms(o.median)} (${ratio(o.median / f.median)})`, '≤ 2.5× floor', o.median / f.median <= 2.5),
    );
    return node;
  });

  // Requests: a first sync (the floor: /v1/me, the export, calendar, stats) and a re-sync with nothing changed. Within
  // the export hour a re-sync reads the pages: its floor is one request per page of each listing at limit 100,
  // one per list (its items) and one per single resource (/v1/me, which tells whose mirror this is; profile,
  // calendar, stats).
  const small = await startSandbox({ entries: 3456, rateLimit: 0 });
  const again = scratch();
  try {
    const env = lkEnv(small, again.dir, { LK_DATA_DIR: join(again.dir, 'data') });
    small.resetCounters();
    await run(node, [lkBin, 'sync', '-q'], { env });
    const first = small.counters.requests;
    const pages = (total) => Math.max(1, Math.ceil(total / 100));
    const get = async (path) => (await fetch(`${small.url}${path}`, { headers: { authorization: `Bearer ${small.key('other')}` } })).json();
    const totals = await Promise.all(
      ['/v1/library', '/v1/history', '/v1/lists', '/v1/reviews', '/v1/profile/achievements', '/v1/notifications'].map(
        async (path) => (await get(`${path}?limit=1`)).total,
      ),
    );
    const lists = totals[2];
    small.resetCounters();
    await run(node, [lkBin, 'sync', '-q'], { env });
    const second = small.counters.requests;
    const floor = totals.reduce((sum, total) => sum + pages(total), 0) + lists + 4;
    rows.push(row('mirror: requests of a first sync (3,456 entries)', String(first), '= 4 (me, export, calendar, stats)', first === 4));
    rows.push(
      row(
        'mirror: requests of a re-sync, nothing changed, within the export hour',
        String(second),
        `= ${floor} (pages at limit 100)`,
        second === floor,
      ),
    );
  } finally {
    await small.close();
    again.cleanup();
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await mirror();
  for (const r of rows) process.stdout.write(`${r.figure} | ${r.value} | ${r.target} | ${r.target ? (r.pass ? 'ok' : 'MISSED') : ''}\n`);
}
