// `lk report`: the year in review of a 100,000-entry mirror, made in a whole process (start to file written) beside
// the target of 1 s, and the size of the page for the default sandbox's busiest year beside 300 KB. Runs lk under
// the Node with node:sqlite that bench/mirror.mjs finds.
//
//   node bench/report.mjs            # alone (npm run build first)
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { interleaved, lkBin, lkEnv, ms, row, run, scratch, startSandbox } from './lib.mjs';
import { sqliteNode } from './mirror.mjs';

const KB = 1000;

/** Syncs a sandbox of this size into a fresh mirror; the busiest year's number and its count of dated events. */
async function mirrorOf(node, entries, dir) {
  const sandbox = await startSandbox({ entries, rateLimit: 0, exportIntervalSeconds: 0 });
  const env = lkEnv(sandbox, dir, { LK_DATA_DIR: join(dir, 'data') });
  await run(node, [lkBin, 'sync', '-q'], { env });
  const busiest = JSON.parse(
    execFileSync(
      node,
      [
        lkBin,
        'sql',
        '-q',
        '--json',
        'SELECT substr(date, 1, 4) AS year, count(*) AS n FROM history WHERE date IS NOT NULL GROUP BY 1 ORDER BY n DESC LIMIT 1',
      ],
      { env, encoding: 'utf8' },
    ),
  )[0];
  return { sandbox, env, year: busiest.year, events: busiest.n };
}

export async function report({ runs = 5 } = {}) {
  const node = sqliteNode();
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  const rows = [];
  const work = scratch();
  try {
    const big = await mirrorOf(node, 100_000, join(work.dir, 'big'));
    await big.sandbox.close();
    const file = join(work.dir, 'big.html');
    const [timed] = await interleaved([() => run(node, [lkBin, 'report', '-q', '--year', big.year, '-o', file], { env: big.env })], runs);
    const events = big.events.toLocaleString('en-US');
    rows.push(
      row(
        `report: lk report --year ${big.year}, 100,000 entries (${events} events that year; ${version})`,
        `${ms(timed.median)} (${(statSync(file).size / KB).toFixed(0)} KB)`,
        '< 1000 ms',
        timed.median < 1000,
      ),
    );
    const small = await mirrorOf(node, 250, join(work.dir, 'small'));
    await small.sandbox.close();
    const page = join(work.dir, 'small.html');
    await run(node, [lkBin, 'report', '-q', '--year', small.year, '-o', page], { env: small.env });
    const size = statSync(page).size;
    rows.push(
      row(`report: page size, the sandbox's busiest year (${small.year}, 250 entries)`, `${(size / KB).toFixed(0)} KB`, '< 300 KB', size < 300 * KB),
    );
  } finally {
    work.cleanup();
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await report();
  for (const r of rows) process.stdout.write(`${r.figure} | ${r.value} | ${r.target} | ${r.target ? (r.pass ? 'ok' : 'MISSED') : ''}\n`);
}
