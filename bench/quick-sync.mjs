// The quick sync at scale (issue 47, src/mirror/sync/quick.ts): within the export hour, a sync of a 20,000-entry
// mirror reads only what changed since the last sync. Its request budget, counted by the sandbox: with nothing
// changed, after 10 new events and 2 new entries (one /v1/library, one /v1/history, no export, each touched entry
// once), and after one entry removed on the server (the library's count differs: its pages are read, not every
// listing's); and the reviews, 13 pages at this size, named in the one line of what waits for the next export.
// test/mirror/quick-sync.test.ts keeps the behaviours on a small account; this keeps the figures of a large one.
// lk runs under the Node that has node:sqlite (sqliteNode in bench/mirror.mjs).
//
//   node bench/quick-sync.mjs       # alone (npm run build first); exits 1 when a figure misses its target
//   npm run bench -- quickSync      # the same, through the bench's table
import { join } from 'node:path';
import { onLargeAccount } from './mirror.mjs';
import { lkBin, row, run } from './lib.mjs';

/** The requests a quick sync may take: one minute of the default budget (docs/api.md, Limits: 60 a minute). */
const QUICK_BUDGET = 60;

export async function quickSync({ entries = 20_000 } = {}) {
  return onLargeAccount(entries, async ({ node, version, work, big, env }) => {
    const db = join(work.dir, 'mirror.db');
    const sync = () => run(node, [lkBin, 'sync', '--db', db], { env });
    const n = entries.toLocaleString('en-US');
    const rows = [];

    const first = await sync();
    if (!/from the export/.test(first.stderr)) throw new Error(`the first sync was not from the export: ${first.stderr.trim()}`);

    big.resetCounters();
    const still = await sync();
    const unchanged = big.counters.requests;
    rows.push(
      row(
        `quick sync: requests with nothing changed, ${n} entries (${version})`,
        String(unchanged),
        `≤ ${QUICK_BUDGET}, no export`,
        unchanged <= QUICK_BUDGET && big.counters.byPath['/v1/export'] === undefined && /from what changed since the last sync/.test(still.stderr),
      ),
    );

    const ids = big.entryIds('demo');
    const touched = Array.from({ length: 10 }, (_, index) => ids[500 + index * 37]);
    for (const id of touched) big.addEvent('demo', id);
    big.addEntries('demo', 2);
    big.resetCounters();
    const quick = await sync();
    const { requests, byPath } = big.counters;
    const shape = [
      byPath['/v1/me'] === 1,
      byPath['/v1/library'] === 1,
      byPath['/v1/history'] === 1,
      byPath['/v1/export'] === undefined, // the hour's export is the mirror's already: none asked
      touched.every((id) => byPath[`/v1/library/${id}`] === 1),
      new RegExp(` from what changed since the last sync in .*, \\d+ requests: ${(entries + 2).toLocaleString('en-US')} entries, `).test(
        quick.stderr,
      ),
    ];
    rows.push(
      row(
        'quick sync: requests after 10 new events and 2 new entries',
        `${requests} (library ${byPath['/v1/library'] ?? 0}, history ${byPath['/v1/history'] ?? 0}, export ${byPath['/v1/export'] ?? 0})`,
        `≤ ${QUICK_BUDGET}; 1 library, 1 history, no export, each touched entry once`,
        requests <= QUICK_BUDGET && shape.every(Boolean),
      ),
    );
    const waits = quick.stderr.split('\n').filter((line) => line.includes('waiting for the next export'));
    rows.push(
      row(
        'quick sync: what waits for the next export, in one line',
        waits.length === 1 ? 'one line' : `${waits.length} lines`,
        'one line naming the reviews',
        waits.length === 1 && /the reviews \(too large to read whole within the budget\) — lk sync --full reads every page now$/.test(waits[0]),
      ),
    );

    // One entry gone on the server: the library's count is off, so the library is read whole from its pages — every
    // page of it once, still not every page of every listing (the history's 800 and more) nor an export.
    big.removeEntry('demo', ids[1_234]);
    big.resetCounters();
    const removal = await sync();
    const libraryPages = Math.ceil((entries + 1) / 100);
    const afterRemoval = big.counters.requests;
    const removalBudget = libraryPages + QUICK_BUDGET;
    rows.push(
      row(
        'quick sync: requests after one entry removed on the server',
        `${afterRemoval} (library ${big.counters.byPath['/v1/library'] ?? 0}, history ${big.counters.byPath['/v1/history'] ?? 0})`,
        `≤ ${removalBudget} (${libraryPages} library pages + ${QUICK_BUDGET})`,
        afterRemoval <= removalBudget &&
          big.counters.byPath['/v1/history'] === 1 &&
          big.counters.byPath['/v1/export'] === undefined &&
          /the library's count differed from the mirror's: it was read whole from its pages \(1 entry removed on the server/.test(removal.stderr),
      ),
    );
    return rows;
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await quickSync();
  for (const r of rows) process.stdout.write(`${r.figure} | ${r.value} | ${r.target} | ${r.pass ? 'ok' : 'MISSED'}\n`);
  if (rows.some((r) => !r.pass)) process.exitCode = 1;
}
